/**
 * Seeded task results (docs/guides/task-results.md): every capability gives its shape, in plain English, the same
 * bytes for the same seed, and the output tokens charged are the documented rule's count of the output returned.
 */
import { readFileSync } from 'node:fs';
import { faker } from '@faker-js/faker/locale/en';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_TYPES } from '../../src/model/result-types.js';
import type { Door } from '../support/doors.js';
import { DESCRIPTIONS, RANGES, agentOf, get, open, post } from './results-support.js';

/** The documented rule (docs/decisions/tokenizer.md): ⌈characters ÷ 4⌉, the same as input tokens. */
const tokensOf = (text: string): number => Math.ceil(text.length / 4);

/** What each shape's output looks like (the table of docs/guides/task-results.md). */
const SHAPES: Record<string, (result: { output: string; language?: string }) => void> = {
  text: (r) => expect(r.output).toMatch(/^[A-Z][^\n]*\.(\n\n[A-Z][^\n]*\.)*$/),
  summarization: (r) => {
    // "in three bullet points": three lines, each a bullet, reusing the description's key words.
    expect(r.output.split('\n')).toHaveLength(3);
    for (const line of r.output.split('\n')) expect(line).toMatch(/^- [A-Z]/);
    expect(r.output).toMatch(/quarterly|report/);
  },
  translation: (r) => {
    expect(r.language).toBe('de');
    expect(r.output).toMatch(/^[^\n]*[äöüß]?[^\n]*\n\nTranslator note: /);
    expect(r.output).toMatch(/\b(Ihre|Sie|wir|Der|Das|Vielen)\b/);
  },
  'code-generation': (r) => {
    expect(r.language).toBe('python');
    expect(r.output).toMatch(/^```python\n"""\n[\s\S]*\n"""\ndef \w+\(records: list\[dict\]\) -> dict:\n[\s\S]*\n```$/);
  },
  'code-review': (r) => {
    expect(r.output).toMatch(/^Summary: /);
    expect(r.output).toMatch(/\n1\. \[(major|minor|nit|question)\] src\/\w+\.ts:\d+: /);
    expect(r.output).toMatch(/\n\nVerdict: (approve|approve with suggestions|request changes)\.$/);
  },
  'data-extraction': (r) => {
    const json = JSON.parse(r.output);
    expect(Object.keys(json)).toEqual(['fields', 'confidence', 'notes']);
    expect(Object.keys(json.fields)).toEqual(expect.arrayContaining(['vendor', 'invoice', 'date', 'total']));
    // Values of the kinds the names ask for: a company, a date, an amount.
    expect(json.fields.vendor).toMatch(/^[A-Z][a-z]+ [A-Z]/);
    expect(json.fields.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof json.fields.total).toBe('number');
  },
  classification: (r) => {
    const json = JSON.parse(r.output);
    expect(json.label).toBe('billing'); // "a double charge on my card"
    expect(json.score).toBeGreaterThan(0.5);
    expect(json.score).toBeLessThanOrEqual(1);
    expect(json.alternatives).toHaveLength(2);
    expect(typeof json.rationale).toBe('string');
  },
  research: (r) => {
    const [body, sources] = r.output.split('\n\nSources:\n');
    expect(body).toMatch(/^[A-Z]/);
    expect(sources).toMatch(/^1\. [A-Z][a-z]+, [A-Z]\. \(20\d\d\)\. [^\n]+\. [^\n]+, \d+\(\d\), \d+-\d+\.$/m);
  },
  copywriting: (r) => expect(r.output).toMatch(/^Headline: [^\n]+\n\n[\s\S]+\n\n[A-Z][^\n]+\.$/),
  'question-answering': (r) => expect(r.output).toMatch(/^Answer: [^\n]+\n\nReasoning: [^\n]+$/),
  sql: (r) => expect(r.output).toMatch(/^```sql\nSELECT \w+, COUNT\(\*\)[\s\S]*\nFROM orders\n[\s\S]*;\n```\n\n[A-Z]/),
  'sentiment-analysis': (r) => {
    const json = JSON.parse(r.output);
    expect(['positive', 'negative', 'neutral', 'mixed']).toContain(json.label);
    expect(json.score).toBeGreaterThan(0);
    expect(json.aspects.map((a: { aspect: string }) => a.aspect)).toContain('delivery');
  },
  planning: (r) => {
    // "in five steps": five numbered lines.
    const lines = r.output.split('\n');
    expect(lines.map((l) => /^(\d+)\. /.exec(l)?.[1])).toEqual(['1', '2', '3', '4', '5']);
  },
};

/**
 * Latin of faker's lorem list: five letters or more, less the few that are English words too and that the sandbox's
 * English word banks use ("comes").
 */
const BANKS = readFileSync(new URL('../../src/rules/results/words.ts', import.meta.url), 'utf8');
const LATIN = new Set(
  (faker.rawDefinitions.lorem?.word ?? []).filter((w) => w.length >= 5 && !new RegExp(`\\b${w}\\b`).test(BANKS)),
);

describe('seeded task results', () => {
  let door: Door;
  const tasks: { type: string; range: 'short' | 'long'; body: any }[] = [];
  beforeAll(async () => {
    door = open();
    const ids: { type: string; range: 'short' | 'long'; id: string }[] = [];
    for (const type of RESULT_TYPES)
      for (const range of ['short', 'long'] as const)
        for (let n = 0; n < 3; n++)
          ids.push({ type, range, id: await post(door, agentOf(type, range), DESCRIPTIONS[type]!) });
    door.sandbox.clock.advance('1h');
    for (const { type, range, id } of ids) tasks.push({ type, range, body: (await get(door, id)).json });
  });
  afterAll(() => door.close());

  it.each(RESULT_TYPES)('a %s agent returns its shape, tagged with its type, in plain English', (type) => {
    const mine = tasks.filter((t) => t.type === type);
    expect(mine).toHaveLength(6);
    for (const { body } of mine) {
      expect(body.status).toBe('completed');
      expect(body.result.type).toBe(type);
      SHAPES[type]!(body.result);
      const words: string[] = body.result.output.toLowerCase().match(/[a-z]+/g) ?? [];
      expect(words.filter((w) => LATIN.has(w))).toEqual([]);
    }
  });

  it("output tokens are the rule's count of the output returned (⌈characters ÷ 4⌉), within the agent's range", () => {
    expect(tasks).toHaveLength(RESULT_TYPES.length * 6);
    for (const { range, body } of tasks) {
      expect(body.usage.output_tokens).toBe(tokensOf(body.result.output));
      expect(body.usage.output_tokens).toBeGreaterThanOrEqual(RANGES[range].min);
      expect(body.usage.output_tokens).toBeLessThanOrEqual(RANGES[range].max);
    }
  });

  it('billing is exact from those counts: each cost, and the usage totals of the period', async () => {
    const agents = (await door.call('GET', '/ext/agents?limit=100', { key: 'ak_results_admin_00000000000000000000' }))
      .json.data as { id: string; pricing: { input_per_1m_tokens: number; output_per_1m_tokens: number } }[];
    const pricing = new Map(agents.map((a) => [a.id, a.pricing]));
    let input = 0;
    let output = 0;
    let costNano = 0;
    for (const { body } of tasks) {
      const price = pricing.get(body.agent_id)!;
      // Nano-dollars a token: USD per 1M tokens × 1,000; the Pro plan's 10 % discount.
      const listNano =
        body.usage.input_tokens * price.input_per_1m_tokens * 1000 +
        tokensOf(body.result.output) * price.output_per_1m_tokens * 1000;
      const expected = Math.round((listNano * 90) / 100);
      expect(Math.round(body.usage.cost_usd * 1e9)).toBe(expected);
      input += body.usage.input_tokens;
      output += tokensOf(body.result.output);
      costNano += expected;
    }
    const usage = (await door.call('GET', '/ext/usage', { key: 'ak_results_admin_00000000000000000000' })).json;
    expect(usage.tokens).toEqual({ input, output, total: input + output });
    expect(Math.round(usage.cost_usd * 1e9)).toBe(costNano);
  });
});
