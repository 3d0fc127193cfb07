/** The plain fields every door checks the same way (src/schemas.ts builds the inputs from them; so do state files). */
import { z } from 'zod';
import { lazy } from './lazy.js';
import { PLAN_IDS, type PlanId } from './plans.js';
import { SCOPES } from './scopes.js';

/** The field schemas, built on first use. */
export const fieldSchemas = lazy(() => ({
  planId: z.enum(PLAN_IDS as [PlanId, ...PlanId[]], { error: `must be one of ${PLAN_IDS.join(', ')}` }),
  /** A balance in USD: a finite number ≥ 0 (a negative balance is no state the API can be in). */
  balanceUsd: z.number({ error: 'must be a number' }).min(0, { error: 'must be a number ≥ 0' }),
  /** Nano-USD as stored: a whole number ≥ 0. */
  nanoUsd: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be ≥ 0' }),
  scopeList: z
    .array(z.enum(SCOPES, { error: `must be one of ${SCOPES.join(', ')}` }), { error: 'must be a list of scopes' })
    .min(1, { error: 'must name at least one scope' }),
  /** A per-account rate limit: a positive integer, or null to go back to the plan's. */
  limitValue: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .positive({ error: 'must be > 0' }),
}));
