/**
 * The parallel-safety proof: two test files run at the same time against one CLI server, each in its own account
 * (POST /__sandbox/accounts) with opposite scenarios, each passing ROUNDS (20) rounds in a row.
 * `PARALLEL_RUNS=N` repeats the whole run N times (default 1; `npm run test:parallel` runs it 20 times).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUNS = Number(process.env.PARALLEL_RUNS ?? 1);

function runVitest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        'test/scenarios/parallel/vitest.config.ts',
        '--reporter',
        'json',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it(
  `two files in parallel, one server, own accounts, opposite scenarios: 20 rounds each, ${RUNS} run(s)`,
  async () => {
    const out: string[] = [];
    const run = await main(['--port', '0', '--quiet'], { stdout: (s) => out.push(s), stderr: () => {}, env: {} });
    const url = out
      .join('')
      .trim()
      .replace(/\/api\/v1$/, '');
    try {
      for (let i = 1; i <= RUNS; i++) {
        const { code, output } = await runVitest({ SANDBOX_URL: url, RUN_ID: String(i), ROUNDS: '20' });
        const json = output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1);
        const report = JSON.parse(json) as {
          numPassedTests: number;
          numFailedTests: number;
          testResults: {
            name: string;
            startTime: number;
            endTime: number;
            assertionResults: { title: string; failureMessages: string[] }[];
          }[];
        };
        const failures = report.testResults.flatMap((f) =>
          f.assertionResults
            .filter((t) => t.failureMessages.length > 0)
            .map((t) => `${t.title}: ${t.failureMessages[0]!.split('\n')[0]}`),
        );
        expect({ run: i, code, failures, passed: report.numPassedTests }).toEqual({
          run: i,
          code: 0,
          failures: [],
          passed: 40,
        });
        // The two files ran at the same time.
        const [a, b] = report.testResults;
        expect(a!.startTime < b!.endTime && b!.startTime < a!.endTime).toBe(true);
      }
    } finally {
      await run!.stop();
    }
  },
  100_000 * RUNS,
);
