/**
 * The zod schemas the library exports, built when the library is imported (its modules build them on first use, so
 * that the CLI starts without zod).
 */
import { fixtureSetSchema } from '../model/fixture-schema.js';
import { taskBodySchema } from './task-body.js';

/** The body of POST /ext/tasks. */
export const TaskBodySchema = taskBodySchema();
/** A fixture set: the demo data a sandbox starts from (JSON, snake_case, USD). */
export const FixtureSetSchema = fixtureSetSchema();
