// Node ≥ 22.1 keeps V8's compiled code of the modules on disk between starts (its own cache directory under the
// temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off); Node 20 has no such cache. Enabled before the
// CLI's modules are imported, so that they are compiled from it. `node:module` is taken from `getBuiltinModule`
// (Node ≥ 20.16): this entry then imports nothing before main (scripts/esbuild-builtins.ts).
const nodeModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:module');
(nodeModule as { enableCompileCache?: () => unknown } | undefined)?.enableCompileCache?.();
const { main } = await import('./main.js');

const io = {
  stdout: (t: string) => process.stdout.write(t),
  stderr: (t: string) => process.stderr.write(t),
  env: process.env,
};

const fail = (error: Error) => {
  io.stderr(`agent-work-sandbox: ${error.message}\n`);
  if (error.name === 'UsageError') io.stderr('Run agent-work-sandbox --help for the options.\n');
  process.exit(error.name === 'UsageError' ? 2 : 1);
};

const started = main(process.argv.slice(2), io);

// The signal handlers are in place before the server starts, so a signal that arrives the moment the banner is out
// still stops the server cleanly and saves the state.
// One listener per signal, added once: Deno runs a listener added while a signal is being dispatched for that same
// signal, so a "second signal" listener added inside the first would end the process at once (exit 1, no --state).
let stopping = false;
const stop = () => {
  // A second signal ends at once.
  if (stopping) process.exit(1);
  stopping = true;
  started
    .then((run) => run?.stop())
    .then(
      (code) => process.exit(code ?? 0),
      (error: unknown) => {
        io.stderr(`agent-work-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

started.catch(fail);

export {};
