import type { Agent } from '../model/types.js';

/** About four characters make a token. */
const CHARS_PER_TOKEN = 4;

/** Input tokens of a task: its description at ~4 characters a token, plus the agent's fixed overhead. */
export function inputTokensFor(description: string, agent: Agent): number {
  return Math.ceil(description.length / CHARS_PER_TOKEN) + agent.tokens.overhead;
}
