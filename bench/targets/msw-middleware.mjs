/**
 * The obvious design: the sandbox's msw handlers served by @mswjs/http-middleware's `createServer`.
 * Prints `{"url": …}` on stdout when listening.
 */
import { createServer } from '@mswjs/http-middleware';
import { createSandbox } from '../../dist/index.js';
import { unlimit } from '../fixtures.mjs';

const sandbox = createSandbox();
unlimit(sandbox);
const server = createServer(...sandbox.handlers).listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` })}\n`);
});
