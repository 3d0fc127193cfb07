/** The shapes of results that are code or JSON text: one small function a shape, each filling exactly `length`. */
import { between, capital, pick, prose, type Draw } from './prose.js';
import { commentText, type Shaped } from './shapes-text.js';
import { CODE_LANGUAGES, COMPANIES, LABELS } from './words.js';

/** Names in the case a language uses: snake_case or camelCase. */
const snake = (words: readonly string[]): string => words.join('_');
const camel = (words: readonly string[]): string => words.map((w, i) => (i === 0 ? w : capital(w))).join('');

/** The body of a function that totals records by a key word, per language. */
const CODE: Record<string, (name: string, key: string, value: string) => string> = {
  python: (name, key, value) =>
    `def ${name}(records: list[dict]) -> dict:\n    totals: dict = {}\n    for record in records:\n` +
    `        key = record.get("${key}", "unknown")\n        totals[key] = totals.get(key, 0) + record.get("${value}", 0)\n` +
    `    return totals`,
  typescript: (name, key, value) =>
    `export function ${name}(records: Record<string, number>[]): Map<string, number> {\n` +
    `  const totals = new Map<string, number>();\n  for (const record of records) {\n` +
    `    const key = String(record["${key}"] ?? "unknown");\n` +
    `    totals.set(key, (totals.get(key) ?? 0) + (record["${value}"] ?? 0));\n  }\n  return totals;\n}`,
  javascript: (name, key, value) =>
    `export function ${name}(records) {\n  const totals = new Map();\n  for (const record of records) {\n` +
    `    const key = String(record.${key} ?? "unknown");\n` +
    `    totals.set(key, (totals.get(key) ?? 0) + (record.${value} ?? 0));\n  }\n  return totals;\n}`,
  go: (name, key, value) =>
    `func ${capital(name)}(records []map[string]float64) map[string]float64 {\n` +
    `\ttotals := map[string]float64{}\n\tfor _, record := range records {\n` +
    `\t\ttotals[fmt.Sprint(record["${key}"])] += record["${value}"]\n\t}\n\treturn totals\n}`,
  rust: (name, key, value) =>
    `pub fn ${name}(records: &[HashMap<String, f64>]) -> HashMap<String, f64> {\n` +
    `    let mut totals = HashMap::new();\n    for record in records {\n` +
    `        let key = record.get("${key}").map_or("unknown".to_string(), |v| v.to_string());\n` +
    `        *totals.entry(key).or_insert(0.0) += record.get("${value}").copied().unwrap_or(0.0);\n` +
    `    }\n    totals\n}`,
  java: (name, key, value) =>
    `public static Map<String, Double> ${name}(List<Map<String, Double>> records) {\n` +
    `    Map<String, Double> totals = new HashMap<>();\n    for (Map<String, Double> record : records) {\n` +
    `        String key = String.valueOf(record.get("${key}"));\n` +
    `        totals.merge(key, record.getOrDefault("${value}", 0.0), Double::sum);\n    }\n    return totals;\n}`,
};

/** The language named or implied by the description (a cue word), else Python or TypeScript. */
function codeLanguage(d: Draw): (typeof CODE_LANGUAGES)[number] {
  const lower = d.description.toLowerCase();
  const named = CODE_LANGUAGES.find((l) => l.cues.some((cue) => new RegExp(`\\b${cue}\\b`).test(lower)));
  return named ?? pick(d.rand, CODE_LANGUAGES.slice(0, 2));
}

/** A fenced code block: a comment that explains the function, then the function, named after key words. */
export function codeGeneration(d: Draw, length: number): Shaped {
  const lang = codeLanguage(d);
  const [first = 'task', second = 'items', third = 'total'] = d.keywords;
  const words = ['summarize', first, 'by', second];
  const name = lang.tag === 'python' || lang.tag === 'rust' ? snake(words) : camel(words);
  const code = (CODE[lang.tag] ?? CODE.python)?.(name, second, third) ?? '';
  const open = `\`\`\`${lang.tag}\n${lang.open}\n`;
  const close = `\n${lang.close}\n${code}\n\`\`\``;
  return { output: open + commentText(d, length - open.length - close.length) + close, language: lang.tag };
}

/** A fenced SQL query over tables and columns named after key words, then what it does. */
export function sql(d: Draw, length: number): Shaped {
  const [table = 'orders', column = 'region'] = d.keywords;
  const query =
    `\`\`\`sql\nSELECT ${column}, COUNT(*) AS total, SUM(amount) AS amount\nFROM ${table}\n` +
    `WHERE created_at >= DATE '2026-01-01'\nGROUP BY ${column}\nORDER BY total DESC\nLIMIT ${between(d.rand, 5, 50)};\n\`\`\`\n\n`;
  return { output: query + prose(d, length - query.length) };
}

/** Scores that add up to at most 1, the first the highest, with two decimals. */
function scores(rand: () => number, count: number): number[] {
  const top = between(rand, 62, 97);
  const out = [top];
  let left = 100 - top;
  for (let i = 1; i < count; i++) {
    const next = Math.min(left, between(rand, 0, Math.min(left, top - 1)));
    out.push(next);
    left -= next;
  }
  return out.map((s) => s / 100);
}

/** JSON text of `value` with a last string field `field` of prose that makes the whole `length` characters. */
function jsonWithProse(d: Draw, length: number, value: Record<string, unknown>, field: string): string {
  const empty = JSON.stringify({ ...value, [field]: '' });
  // Prose holds no character that JSON escapes: its length in the text is its own.
  return JSON.stringify({ ...value, [field]: prose(d, length - empty.length) });
}

/** A JSON label with a score, the runners-up, and a rationale. */
export function classification(d: Draw, length: number): Shaped {
  // The label the description's words point to, else one drawn; the runners-up follow it in the list.
  const lower = d.description.toLowerCase();
  const cued = LABELS.findIndex((l) => l.cue.test(lower));
  const start = cued >= 0 ? cued : between(d.rand, 0, LABELS.length - 1);
  const s = scores(d.rand, 3);
  const labels = s.map((score, i) => ({ label: LABELS[(start + i * 3) % LABELS.length]?.label, score }));
  const value = { label: labels[0]?.label, score: s[0], alternatives: labels.slice(1) };
  return { output: jsonWithProse(d, length, value, 'rationale') };
}

/** A JSON sentiment label with a score, the sentiment of key words as aspects, and a rationale. */
export function sentimentAnalysis(d: Draw, length: number): Shaped {
  const sentiments = ['positive', 'negative', 'neutral', 'mixed'];
  const aspects = d.keywords.slice(0, 3).map((aspect) => ({
    aspect,
    label: pick(d.rand, sentiments.slice(0, 3)),
    score: between(d.rand, 55, 98) / 100,
  }));
  const value = { label: pick(d.rand, sentiments), score: between(d.rand, 60, 98) / 100, aspects };
  return { output: jsonWithProse(d, length, value, 'rationale') };
}

/** The kind of value a field's name asks for (a date for "due_date", an amount for "total"), else by its position. */
const FIELD_KINDS: readonly [RegExp, number][] = [
  [/vendor|company|customer|supplier|client|name|part(y|ies)|employer/, 0],
  [/date|day|due|time|deadline|period/, 1],
  [/total|amount|price|cost|sum|revenue|fee|balance|tax/, 2],
  [/count|quantity|items|number|units/, 3],
  [/status|state|stage/, 4],
];

/** JSON fields named after key words, with values of the kinds their names ask for, a confidence and notes. */
export function dataExtraction(d: Draw, length: number): Shaped {
  const kinds = [
    () => pick(d.rand, COMPANIES),
    () => `2026-${String(between(d.rand, 1, 12)).padStart(2, '0')}-${String(between(d.rand, 1, 28)).padStart(2, '0')}`,
    () => Number((between(d.rand, 1000, 999999) / 100).toFixed(2)),
    () => between(d.rand, 1, 40),
    () => pick(d.rand, ['open', 'paid', 'pending', 'approved']),
  ];
  const fields: Record<string, unknown> = {};
  d.keywords.slice(0, 5).forEach((key, i) => {
    const kind = FIELD_KINDS.find(([cue]) => cue.test(key))?.[1] ?? i % kinds.length;
    fields[key] = kinds[kind]?.();
  });
  const value = { fields, confidence: between(d.rand, 80, 99) / 100 };
  return { output: jsonWithProse(d, length, value, 'notes') };
}
