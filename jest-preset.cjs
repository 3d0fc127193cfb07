// `preset: 'agent-work-sandbox'` in a Jest config: the setup msw 2 and 3 need under Jest. Jest's module system cannot
// load ES modules through require(); msw 2's CommonJS build requires a few ESM-only packages, and msw 3 is ESM-only.
// The transformer below turns ES modules under node_modules into CommonJS (and leaves CommonJS files as they are);
// your own files keep Jest's default transform (babel-jest). Under Jest's native ESM mode
// (NODE_OPTIONS=--experimental-vm-modules) it leaves ES modules as they are.
// (One `exports.x =` a field, so that Node sees the named exports an ESM import of it would expect.)
const { presetProblem } = require('./jest-preset-check.cjs');

const problem = presetProblem();
if (problem) {
  const error = new Error(`agent-work-sandbox/jest-preset: ${problem}`);
  error.stack = error.message; // the line says what to do; a stack of Jest's config loader would bury it
  throw error;
}

exports.testEnvironment = 'node';
exports.transform = {
  '[\\\\/]node_modules[\\\\/].+\\.[cm]?js$': require.resolve('./jest-transform.cjs'),
  '\\.[jt]sx?$': 'babel-jest',
};
// Jest skips node_modules by default; the transformer decides per file instead.
exports.transformIgnorePatterns = ['\\.pnp\\.[^\\\\/]+$'];
