/** A sandbox with one agent per capability of the catalogue, for the tests of seeded task results. */
import type { FixtureSet, SandboxOptions } from '../../src/index.js';
import { RESULT_TYPES } from '../../src/model/result-types.js';
import { viaFetch, type Door } from '../support/doors.js';

export const KEY = 'ak_results_admin_00000000000000000000';

/** A description per capability, as an integrator would send it. */
export const DESCRIPTIONS: Record<string, string> = {
  text: 'Look into the onboarding survey answers',
  summarization: 'Summarise the attached quarterly report in three bullet points',
  translation: 'Translate the welcome email for new customers into German',
  'code-generation': 'Write a Python script that totals invoices by vendor',
  'code-review': 'Review the pull request that changes the payment retry logic',
  'data-extraction': 'Extract the vendor, invoice date and total from the scanned invoice',
  classification: 'Classify this support ticket about a double charge on my card',
  research: 'Research how mid-size retailers adopt self-checkout, with sources',
  copywriting: 'Write a headline and body for the launch of our budgeting app',
  'question-answering': 'Why did churn among enterprise customers rise last quarter?',
  sql: 'Query the orders table for revenue by region this year',
  'sentiment-analysis': 'Score the sentiment of these product reviews about delivery and price',
  planning: 'Plan the migration of the billing database in five steps',
};

/** Token ranges of the agents: every capability gets a short and a long one. */
export const RANGES = { short: { min: 100, max: 400 }, long: { min: 800, max: 3_000 } } as const;

/** Agent id of a capability ('text': a capability outside the catalogue) and a range. */
export const agentOf = (type: string, range: keyof typeof RANGES = 'short'): string =>
  `agt_${type.replaceAll('-', '_')}_${range}`;

function fixtures(): FixtureSet {
  return {
    name: 'results-test',
    accounts: [{ id: 'acc_results', name: 'Results', plan: 'pro', balance_usd: 10_000 }],
    keys: [{ id: 'key_results', key: KEY, account_id: 'acc_results', scopes: ['admin'], label: 'admin' }],
    agents: RESULT_TYPES.flatMap((type, i) =>
      (['short', 'long'] as const).map((range) => ({
        id: agentOf(type, range),
        name: `${type} agent`,
        description: `An agent for ${type}.`,
        capabilities: [type === 'text' ? 'testing' : type],
        model: (['model-a', 'model-b', 'model-c'] as const)[i % 3] ?? 'model-b',
        status: 'available' as const,
        created_at: '2025-01-01T00:00:00.000Z',
        tokens: { overhead: 50, output_min: RANGES[range].min, output_max: RANGES[range].max },
      })),
    ),
  };
}

export const options = (seed = 5): SandboxOptions => ({
  clock: 'manual',
  now: '2026-01-10T00:00:00.000Z',
  seed,
  fixtures: fixtures(),
});

/** A sandbox on these fixtures with limits out of the way. */
export function open(seed = 5): Door {
  const door = viaFetch(options(seed));
  door.sandbox.accounts.update('acc_results', { limits: { rpm: 100_000, tpm: 100_000_000 } });
  return door;
}

/** Posts a task and answers its id. */
export async function post(door: Door, agentId: string, description: string): Promise<string> {
  const created = await door.call('POST', '/ext/tasks', { key: KEY, body: { agent_id: agentId, description } });
  if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${created.text}`);
  return created.json.id as string;
}

/** The task as GET answers it (its text and JSON). */
export const get = (door: Door, id: string) => door.call('GET', `/ext/tasks/${id}`, { key: KEY });
