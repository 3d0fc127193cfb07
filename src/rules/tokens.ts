import type { Agent } from '../model/types.js';

/** About four characters make a token (docs/decisions/tokenizer.md: why no BPE tokenizer). */
const CHARS_PER_TOKEN = 4;

/** The tokens of a text, by the one rule of both sides: ⌈characters ÷ 4⌉. */
export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * A length in characters whose count is exactly `tokens` (any of the four that round up to it, by `offset` 0–3), so
 * that an output generated to that length is billed what it shows.
 */
export function charsForTokens(tokens: number, offset: number): number {
  return tokens <= 0 ? 0 : tokens * CHARS_PER_TOKEN - (offset % CHARS_PER_TOKEN);
}

/** Input tokens of a task: its description at ~4 characters a token, plus the agent's fixed overhead. */
export function inputTokensFor(description: string, agent: Agent): number {
  return countTokens(description) + agent.tokens.overhead;
}
