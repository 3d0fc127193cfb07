import { main } from './main.js';

const io = { stdout: (t: string) => process.stdout.write(t), stderr: (t: string) => process.stderr.write(t), env: process.env };

main(process.argv.slice(2), io).then(
  (run) => {
    if (!run) return;
    const stop = (signal: string) => {
      run.stop().then(
        () => process.exit(0),
        (error: Error) => {
          io.stderr(`agent-work-sandbox: ${error.message}\n`);
          process.exit(1);
        },
      );
      // A second signal ends at once.
      process.once(signal, () => process.exit(1));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  },
  (error: Error) => {
    io.stderr(`agent-work-sandbox: ${error.message}\n`);
    if (error.name === 'UsageError') io.stderr('Run agent-work-sandbox --help for the options.\n');
    process.exit(error.name === 'UsageError' ? 2 : 1);
  },
);
