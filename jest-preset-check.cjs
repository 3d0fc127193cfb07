// What stops the Jest preset from working here, said in one line with what to do; null when nothing does.
function resolvable(id) {
  try {
    require.resolve(id);
    return true;
  } catch {
    return false;
  }
}

function installedMswMajor() {
  try {
    return Number(require('msw/package.json').version.split('.')[0]);
  } catch {
    return undefined;
  }
}

/**
 * `how`: how Jest was started and what is installed; each field defaults to this process (the tests pass others).
 * Native ESM under Jest needs --experimental-vm-modules, and msw 3 (ESM-only) needs it with Node 24 or later.
 */
function presetProblem(how = {}) {
  const {
    nodeOptions = process.env.NODE_OPTIONS ?? '',
    execArgv = process.execArgv,
    nodeMajor = Number(process.versions.node.split('.')[0]),
    mswMajor = installedMswMajor(),
    has = resolvable,
  } = how;
  const missing = ['@babel/core', '@babel/plugin-transform-modules-commonjs'].filter((id) => !has(id));
  if (missing.length > 0)
    return `it needs ${missing.join(' and ')} (optional peer dependencies): npm install --save-dev ${missing.join(' ')}`;
  const vmModules = /--experimental-vm-modules/.test(`${nodeOptions} ${execArgv.join(' ')}`);
  if (mswMajor === 3 && !(vmModules && nodeMajor >= 24))
    return `msw 3 is ESM-only and runs under Jest only on Node 24 or later with NODE_OPTIONS=--experimental-vm-modules (here: Node ${nodeMajor}${vmModules ? '' : ', without that option'}); or install msw 2 (npm install --save-dev msw@2).`;
  return null;
}

module.exports = { presetProblem };
