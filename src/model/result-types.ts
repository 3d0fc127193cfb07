/**
 * The shapes of seeded task results (docs/guides/task-results.md): one per capability of the catalogue, named by it
 * (the result's `type`), and 'text' for agents of none. A task keeps the index of its shape, which follows from its
 * agent's capabilities and its description (so a restored state derives it again instead of storing it).
 */

/** The capabilities of the default catalogue, each with a result shape of its own (the catalogue draws from them). */
export const CAPABILITIES = [
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

/** The `type` tags of results, in the order of their index; index 0, 'text', is the shape of no capability. */
export const RESULT_TYPES = ['text', ...CAPABILITIES] as const;

export type ResultType = (typeof RESULT_TYPES)[number];

/** What the `output` of each shape holds (the OpenAPI document's union and docs/guides/task-results.md say the same). */
export const RESULT_SHAPES: Readonly<Record<ResultType, string>> = {
  text: 'Paragraphs of plain text (an agent with no capability of the catalogue).',
  summarization: 'Bullet points ("- " lines), as many as the description asks for, reusing its key words.',
  translation: 'The text in the target language (`language`: its tag), then an English translator note.',
  'code-generation': 'A fenced code block in the language named or implied by the description (`language`).',
  'code-review': 'A summary, numbered comments on file:line with a severity, and a verdict.',
  'data-extraction': 'JSON text: `fields` named after the description, a `confidence` and `notes`.',
  classification: 'JSON text: a `label` with a `score`, the `alternatives` and a `rationale`.',
  research: 'Paragraphs of findings, then "Sources:" and a numbered list of made-up but plausible sources.',
  copywriting: 'A "Headline:" line, a body and a call to action.',
  'question-answering': 'An "Answer:" then the "Reasoning:" behind it.',
  sql: 'A fenced SQL query, then what it does.',
  'sentiment-analysis': 'JSON text: a sentiment `label` with a `score`, per-aspect `aspects` and a `rationale`.',
  planning: 'Numbered steps, as many as the description asks for.',
};

/** The shapes whose result also names a `language`. */
export const RESULT_LANGUAGE_TYPES: readonly ResultType[] = ['translation', 'code-generation'];

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
  // A loop without arrays: it runs on every POST.
  let first = 0;
  let lower: string | undefined;
  for (const capability of capabilities) {
    const index = (RESULT_TYPES as readonly string[]).indexOf(capability);
    if (index <= 0) continue;
    if (first === 0) first = index;
    else {
      lower ??= description.toLowerCase();
      if (CUES[first]?.test(lower)) return first;
      if (CUES[index]?.test(lower)) return index;
    }
  }
  return first;
}
