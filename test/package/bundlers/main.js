// A small browser app that uses the package as an integrator would, built by test/bundlers.test.ts with Vite and with
// esbuild (no configuration) and run in Chromium. It writes what it saw to window.__result.
import { createSandbox, SandboxError, SCENARIO_NAMES } from 'agent-work-sandbox';
import * as browserEntry from 'agent-work-sandbox/browser';

async function main() {
  const sandbox = createSandbox({ clock: 'manual', scenarios: ['free-plan'] });
  const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;
  const request = (path) =>
    sandbox.handle({
      method: 'GET',
      path,
      query: '',
      header: (n) => (n === 'authorization' ? `Bearer ${key}` : undefined),
      body: '',
      clientId: 'page',
    });
  const agents = request('/ext/agents');
  const usage = request('/ext/usage');
  sandbox.clock.advance('1h');
  let listen = '';
  try {
    await sandbox.listen();
  } catch (error) {
    listen = error instanceof SandboxError ? error.code : String(error);
  }
  window.__result = {
    agents: agents.status,
    count: JSON.parse(agents.body).data.length,
    plan: JSON.parse(usage.body).plan,
    scenarios: SCENARIO_NAMES.length,
    sameEntry: typeof browserEntry.createSandbox === 'function' && browserEntry.SandboxError === SandboxError,
    listen,
  };
}

main().catch((error) => {
  window.__result = { error: String((error && error.stack) || error) };
});
