/**
 * Task results shaped by capability (docs/guides/task-results.md): derived when read from the task's id (itself drawn
 * from the seed), its description, its shape and its planned output tokens, never stored. The output is generated to
 * a length whose token count is exactly the planned one, so a task is billed what it shows.
 */
import { rngFor } from '../../model/random.js';
import { RESULT_TYPES, type ResultType } from '../../model/result-types.js';
import { charsForTokens } from '../tokens.js';
import { keywordsOf, prose, type Draw } from './prose.js';
import { classification, codeGeneration, dataExtraction, sentimentAnalysis, sql } from './shapes-data.js';
import {
  codeReview,
  copywriting,
  planning,
  questionAnswering,
  research,
  summarization,
  text,
  translation,
  type Shaped,
} from './shapes-text.js';

/** How each shape is built, by its `type` (model/result-types.ts lists them in the order a task record keeps). */
const BUILDERS: Record<ResultType, (d: Draw, length: number) => Shaped> = {
  text,
  summarization,
  translation,
  'code-generation': codeGeneration,
  'code-review': codeReview,
  'data-extraction': dataExtraction,
  classification,
  research,
  copywriting,
  'question-answering': questionAnswering,
  sql,
  'sentiment-analysis': sentimentAnalysis,
  planning,
};

/** A generated result: its shape's `type`, the `output` text, and `language` for code and translations. */
export interface TaskResult {
  type: ResultType;
  output: string;
  language?: string;
}

/**
 * The result of a completed task: the shape `typeIndex` built to `tokens` output tokens, from a generator of the task's
 * id. The output has exactly the length drawn (a shape's fixed parts longer than that are cut, as a model stops at its
 * token limit).
 */
export function taskResult(taskId: string, description: string, typeIndex: number, tokens: number): TaskResult {
  const rand = rngFor(0, `result:${taskId}`);
  const length = charsForTokens(tokens, Math.floor(rand() * 4));
  const d: Draw = { rand, description, keywords: keywordsOf(description) };
  const type = RESULT_TYPES[typeIndex] ?? 'text';
  const shaped = BUILDERS[type](d, length);
  let output = shaped.output;
  if (output.length > length) output = output.slice(0, length);
  else if (output.length < length)
    output += ` ${prose(d, length - output.length - 1)}`.slice(0, length - output.length);
  return shaped.language === undefined ? { type, output } : { type, language: shaped.language, output };
}
