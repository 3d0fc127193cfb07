/**
 * `prepare` is `node scripts/npx-built.mjs || tsup`. npm runs `prepare` on `npm install` in a clone, before `npm pack`
 * and `npm publish`, and also when `npx agent-work-sandbox` runs inside the repository: npm 11's npx then links this
 * directory into its cache (~/.npm/_npx) and prepares it as a dependency, which rebuilt dist/ (about a minute) on the
 * first npx of every clone. Under npx (`npm_command` is `exec`) with dist/ built, this exits 0 and the build is
 * skipped: npx runs this directory's dist/cli.js, as `npm start` does. Anywhere else it exits 1, and tsup builds.
 */
import { existsSync } from 'node:fs';

const built = existsSync(new URL('../dist/cli.js', import.meta.url));
process.exitCode = process.env.npm_command === 'exec' && built ? 0 : 1;
