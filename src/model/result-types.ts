/**
 * The shapes of seeded task results (docs/guides/task-results.md): one per capability of the catalogue, named by it
 * (the result's `type`), and 'text' for agents of none. A task keeps the index of its shape, which follows from its
 * agent's capabilities and its description (so a restored state derives it again instead of storing it).
 */

/** The `type` tags of results, in the order of their index; index 0, 'text', is the shape of no capability. */
export const RESULT_TYPES = [
  'text',
  'summarization',
  'translation',
  'code-generation',
  'code-review',
  'data-extraction',
  'classification',
  'research',
  'copywriting',
  'question-answering',
  'sql',
  'sentiment-analysis',
  'planning',
] as const;

export type ResultType = (typeof RESULT_TYPES)[number];

/** The words of a description that ask for a shape, among an agent's capabilities (by index of RESULT_TYPES). */
const CUES: readonly RegExp[] = [
  /$^/,
  /summar|bullet|digest|recap|tl;dr/,
  /translat|locali[sz]/,
  /\b(implement|function|code|script|class|program)/,
  /review|pull request|\bdiff\b|\bpr\b/,
  /extract|parse|fields|pull out/,
  /classif|label|categor|triage|route/,
  /research|sources|survey|literature|market/,
  /headline|copy|tagline|landing|slogan|\bad\b/,
  /\?|question|\b(what|why|how|explain)\b/,
  /\bsql\b|query|database|table/,
  /sentiment|tone|feel|mood/,
  /plan|roadmap|steps|schedule|migrat|milestone/,
];

/**
 * The shape (its index in RESULT_TYPES) of a task for an agent: among the agent's capabilities that have a shape, the
 * first that the description asks for, else the first; 0 (text) when it has none.
 */
export function resultTypeFor(capabilities: readonly string[], description: string): number {
  const indexes = capabilities.map((c) => (RESULT_TYPES as readonly string[]).indexOf(c)).filter((i) => i > 0);
  if (indexes.length < 2) return indexes[0] ?? 0;
  const lower = description.toLowerCase();
  return indexes.find((i) => CUES[i]?.test(lower)) ?? indexes[0] ?? 0;
}
