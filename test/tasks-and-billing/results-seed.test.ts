/**
 * Seeded task results are derived, not stored: the same seed gives the same bytes, a snapshot keeps no seeded output
 * (a restore derives it again), a forced result is kept as given, and every shape fits its token count exactly.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { RESULT_TYPES, resultTypeFor } from '../../src/model/result-types.js';
import { rngFor } from '../../src/model/random.js';
import { taskResult } from '../../src/rules/results/index.js';
import { keywordsOf, prose } from '../../src/rules/results/prose.js';
import { makeCall, IN_PROCESS_BASE } from '../support/doors.js';
import { DESCRIPTIONS, KEY, agentOf, get, open, options, post } from './results-support.js';

/** One task per capability, completed; the GET answers' text in order. */
async function answers(seed: number): Promise<{ texts: string[]; door: ReturnType<typeof open> }> {
  const door = open(seed);
  const ids: string[] = [];
  for (const type of RESULT_TYPES) ids.push(await post(door, agentOf(type, 'long'), DESCRIPTIONS[type]!));
  door.sandbox.clock.advance('1h');
  const texts: string[] = [];
  for (const id of ids) texts.push((await get(door, id)).text);
  return { texts, door };
}

describe('the same seed gives the same bytes', () => {
  it("two sandboxes of one seed answer every capability's task with the same bytes; another seed, other outputs", async () => {
    const [a, b, c] = await Promise.all([answers(11), answers(11), answers(12)]);
    expect(a.texts).toEqual(b.texts);
    const outputs = (texts: string[]) => texts.map((t) => JSON.parse(t).result.output as string);
    const other = outputs(c.texts);
    outputs(a.texts).forEach((output, i) => expect(output).not.toBe(other[i]));
  });
});

describe('results are derived when read, not stored', () => {
  it('a snapshot keeps no seeded output, and a sandbox restored from it answers the same bytes', async () => {
    const { texts, door } = await answers(3);
    const snapshot = door.sandbox.snapshot();
    expect(snapshot.tasks).toHaveLength(RESULT_TYPES.length);
    for (const task of snapshot.tasks) expect(task.result).toBeUndefined();
    expect(JSON.stringify(snapshot)).not.toContain('"output"');
    const restored = createSandbox(options(99));
    restored.restore(JSON.parse(JSON.stringify(snapshot)));
    const call = makeCall(IN_PROCESS_BASE, {}, restored.fetch);
    for (const text of texts) {
      const id = JSON.parse(text).id as string;
      expect((await call('GET', `/ext/tasks/${id}`, { key: KEY })).text).toBe(text);
    }
  });

  it('a forced result (tasks.complete(id, result)) is stored and shown as given, through a snapshot too', async () => {
    const door = open();
    const id = await post(door, agentOf('summarization'), DESCRIPTIONS.summarization!);
    const forced = { summary: ['one', 'two'], custom: true };
    expect(door.sandbox.tasks.complete(id, forced).result).toEqual(forced);
    expect((await get(door, id)).json.result).toEqual(forced);
    const snapshot = door.sandbox.snapshot();
    expect(snapshot.tasks[0]!.result).toEqual(forced);
    const restored = createSandbox(options());
    restored.restore(snapshot);
    expect(restored.tasks.get(id)!.result).toEqual(forced);
  });
});

describe('every shape fits its token count exactly', () => {
  it('for every shape and every count from 0 to 600 tokens, ⌈output characters ÷ 4⌉ is the count', () => {
    RESULT_TYPES.forEach((type, index) => {
      for (let tokens = 0; tokens <= 600; tokens++) {
        const result = taskResult(`task_${type}_${tokens}`, DESCRIPTIONS[type]!, index, tokens);
        expect(result.type).toBe(type);
        if (Math.ceil(result.output.length / 4) !== tokens) expect({ type, tokens, result }).toBeUndefined();
      }
    });
  });

  it('no shape is cut or padded to fit once the count covers its fixed parts: its JSON parses, its fence closes', () => {
    const json = ['data-extraction', 'classification', 'sentiment-analysis'] as const;
    for (let tokens = 60; tokens <= 600; tokens++) {
      for (const type of json) {
        const { output } = taskResult(`task_${tokens}`, DESCRIPTIONS[type]!, RESULT_TYPES.indexOf(type), tokens);
        expect(() => JSON.parse(output), `${type} at ${tokens} tokens`).not.toThrow();
        expect(output.endsWith('."}')).toBe(true);
      }
      for (const type of ['summarization', 'planning', 'question-answering', 'research', 'text'] as const) {
        const { output } = taskResult(`task_${tokens}`, DESCRIPTIONS[type]!, RESULT_TYPES.indexOf(type), tokens);
        expect(output, `${type} at ${tokens} tokens`).toMatch(/[.)]$/);
      }
      const code = taskResult(`task_${tokens}`, DESCRIPTIONS['code-generation']!, 3, tokens + 60).output;
      expect(code.endsWith('\n```')).toBe(true);
    }
  });

  it('prose of any length from 0 to 3,000 characters has exactly that length and, from 3 on, ends a sentence', () => {
    const d = { rand: rngFor(1, 'prose'), description: 'quarterly report', keywords: keywordsOf('quarterly report') };
    for (let length = 0; length <= 3000; length++) {
      const text = prose(d, length);
      expect(text.length).toBe(length);
      if (length >= 3) expect(text).toMatch(/^[A-Z][^]*\.$/);
    }
  });

  it("a range too short for a shape's fixed parts gets them cut, as a model stops at its limit, and still counts exactly", () => {
    const index = RESULT_TYPES.indexOf('classification');
    const result = taskResult('task_short', 'Classify this', index, 3);
    expect(result.output).toBe(result.output.slice(0, 12));
    expect(Math.ceil(result.output.length / 4)).toBe(3);
    expect(result.output.startsWith('{"label":')).toBe(true);
  });
});

describe('the shape of a task for an agent of several capabilities', () => {
  const caps = ['copywriting', 'code-review', 'question-answering'];
  it("is the capability its description asks for, else the agent's first; text for none of the catalogue", () => {
    expect(RESULT_TYPES[resultTypeFor(caps, 'Review the diff of the login form')]).toBe('code-review');
    expect(RESULT_TYPES[resultTypeFor(caps, 'Why do users drop off at sign-up?')]).toBe('question-answering');
    expect(RESULT_TYPES[resultTypeFor(caps, 'Something for the spring campaign')]).toBe('copywriting');
    expect(RESULT_TYPES[resultTypeFor(['legal', 'sql'], 'Anything')]).toBe('sql');
    expect(RESULT_TYPES[resultTypeFor(['testing'], 'Anything')]).toBe('text');
  });
});
