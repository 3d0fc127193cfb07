/**
 * docs/guides/task-results.md shows one example per shape: each is what the generator returns for its description
 * and token count (the examples cannot drift from the code), and the guide's table lists every shape.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { RESULT_SHAPES, RESULT_TYPES } from '../../src/model/result-types.js';
import { taskResult } from '../../src/rules/results/index.js';

const GUIDE = readFileSync(new URL('../../docs/guides/task-results.md', import.meta.url), 'utf8');

it('the guide has one example per shape, each what the sandbox returns for it, and a row per shape', () => {
  RESULT_TYPES.forEach((type, i) => {
    expect(GUIDE).toContain(`| \`${type}\` | ${RESULT_SHAPES[type]} |`);
    const section = new RegExp(
      `### ${type}\\n\\n"([^"]+)": (\\d+) output tokens[^\\n]*\\n\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``,
    ).exec(GUIDE);
    expect(section, type).not.toBeNull();
    const [, description, tokens, shown] = section!;
    // The examples were generated with the ids task_example_<index of the shape>.
    const result = taskResult(`task_example_${i}`, description!, i, Number(tokens));
    expect(JSON.parse(shown!)).toEqual(result);
    expect(Math.ceil(result.output.length / 4)).toBe(Number(tokens));
  });
});
