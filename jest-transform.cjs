// The Jest transformer of the preset (jest-preset.cjs): ES modules under node_modules → CommonJS with babel's
// modules-commonjs plugin; any other file, and every file under Jest's native ESM mode, is returned untouched.
const { createHash } = require('node:crypto');
const { version } = require('./package.json');

const ESM = /^\s*(?:import\s*[\w*{'"]|export\s)/m;
const plugin = require.resolve('@babel/plugin-transform-modules-commonjs');

module.exports = {
  getCacheKey(source, path) {
    return createHash('sha1').update(`agent-work-sandbox ${version}\0${path}\0`).update(source).digest('hex');
  },
  process(source, path, options) {
    // Under Jest's native ESM mode an ES module stays one (turned into CommonJS it would find no `exports`).
    if (options?.supportsStaticESM || !ESM.test(source)) return { code: source };
    // @babel/core comes with Jest (babel-jest needs it); both are optional peers of this package.
    const babel = require('@babel/core');
    const out = babel.transformSync(source, {
      filename: path,
      babelrc: false,
      configFile: false,
      sourceType: 'module',
      plugins: [plugin],
      sourceMaps: true,
    });
    return { code: out.code, map: out.map };
  },
};
