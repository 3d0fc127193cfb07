/** The shapes of results that are text: one small function a shape, each filling exactly `length` characters. */
import { between, capital, countAsked, pick, prose, shares, wrap, type Draw } from './prose.js';
import {
  AUTHORS,
  CALLS_TO_ACTION,
  HEADLINES,
  LANGUAGES,
  SEVERITIES,
  STEP_VERBS,
  TITLE_OPENINGS,
  VENUES,
} from './words.js';

/** A shape's output, and the language tag of the shapes that have one. */
export interface Shaped {
  output: string;
  language?: string;
}

/** Lines of `prefixes[i]` + prose, joined by `separator`, sharing what the prefixes leave of `length`. */
function lines(d: Draw, length: number, prefixes: readonly string[], separator = '\n'): string {
  const fixed = prefixes.reduce((sum, p) => sum + p.length, 0) + separator.length * (prefixes.length - 1);
  const sizes = shares(d.rand, length - fixed, prefixes.length);
  return prefixes.map((p, i) => p + prose(d, sizes[i] ?? 0)).join(separator);
}

/** Bullet points (as many as the description asks, else 3–5) that reuse the description's key words. */
export function summarization(d: Draw, length: number): Shaped {
  const count = countAsked(d.description, 1, 10) ?? between(d.rand, 3, 5);
  return { output: lines(d, length, Array<string>(count).fill('- ')) };
}

/** Numbered steps (as many as the description asks, else 4–7), each opened by a verb and a key word. */
export function planning(d: Draw, length: number): Shaped {
  const count = countAsked(d.description, 1, 12) ?? between(d.rand, 4, 7);
  const prefixes = Array.from({ length: count }, (_, i) => {
    return `${i + 1}. ${pick(d.rand, STEP_VERBS)} the ${pick(d.rand, d.keywords)}: `;
  });
  return { output: lines(d, length, prefixes) };
}

/** An answer, then the reasoning behind it (about a quarter and three quarters). */
export function questionAnswering(d: Draw, length: number): Shaped {
  const rest = length - 'Answer: '.length - '\n\nReasoning: '.length;
  const answer = Math.max(12, Math.floor(rest / 4));
  return { output: `Answer: ${prose(d, answer)}\n\nReasoning: ${prose(d, rest - answer)}` };
}

/** A headline, a body and a call to action. */
export function copywriting(d: Draw, length: number): Shaped {
  const word = pick(d.rand, d.keywords);
  const headline = pick(d.rand, HEADLINES).replace('{K}', capital(word)).replace('{k}', word);
  const head = `Headline: ${headline}\n\n`;
  const tail = `\n\n${pick(d.rand, CALLS_TO_ACTION)}`;
  return { output: head + prose(d, length - head.length - tail.length) + tail };
}

/** One made-up but plausible source about a key word. */
function source(d: Draw, n: number): string {
  const year = between(d.rand, 2015, 2025);
  const pages = between(d.rand, 12, 240);
  const title = `${pick(d.rand, TITLE_OPENINGS)} ${pick(d.rand, d.keywords)} in practice`;
  const venue = `${pick(d.rand, VENUES)}, ${between(d.rand, 3, 48)}(${between(d.rand, 1, 4)})`;
  return `${n}. ${pick(d.rand, AUTHORS)} (${year}). ${title}. ${venue}, ${pages}-${pages + between(d.rand, 8, 30)}.`;
}

/** Paragraphs of findings, then a list of sources (as many as fit in about a third of the length, 1–4). */
export function research(d: Draw, length: number): Shaped {
  const count = Math.min(4, Math.max(1, Math.floor(length / 300)));
  const sources = `\n\nSources:\n${Array.from({ length: count }, (_, i) => source(d, i + 1)).join('\n')}`;
  const paragraphs = Math.min(3, Math.max(1, Math.floor(length / 600)));
  return { output: lines(d, length - sources.length, Array<string>(paragraphs).fill(''), '\n\n') + sources };
}

/** Paragraphs of plain text: the shape of an agent with no capability of the catalogue. */
export function text(d: Draw, length: number): Shaped {
  const paragraphs = Math.min(3, Math.max(1, Math.floor(length / 500)));
  return { output: lines(d, length, Array<string>(paragraphs).fill(''), '\n\n') };
}

/** The target language named in the description ("into German"), else one drawn. */
function targetLanguage(d: Draw): (typeof LANGUAGES)[number] {
  const lower = d.description.toLowerCase();
  return LANGUAGES.find((l) => l.names.some((name) => lower.includes(name))) ?? pick(d.rand, LANGUAGES);
}

/** The translated text in the target language (its tag in `language`), then a translator's note in English. */
export function translation(d: Draw, length: number): Shaped {
  const language = targetLanguage(d);
  const note = '\n\nTranslator note: ';
  const start = between(d.rand, 0, language.sentences.length - 1);
  let translated = '';
  for (let i = 0; i < language.sentences.length; i++) {
    const next = language.sentences[(start + i) % language.sentences.length] ?? '';
    if (translated !== '' && translated.length + next.length + 1 > (length - note.length) * 0.6) break;
    translated += (translated === '' ? '' : ' ') + next;
  }
  const rest = length - translated.length - note.length;
  return { output: `${translated}${note}${prose(d, rest)}`, language: language.tag };
}

/** A short summary, review comments on files named after key words, and a verdict. */
export function codeReview(d: Draw, length: number): Shaped {
  const count = between(d.rand, 2, 4);
  const prefixes = ['Summary: '];
  for (let i = 1; i <= count; i++) {
    const file = `src/${pick(d.rand, d.keywords)}.ts:${between(d.rand, 4, 220)}`;
    prefixes.push(`${i}. [${pick(d.rand, SEVERITIES)}] ${file}: `);
  }
  const verdict = `\n\nVerdict: ${pick(d.rand, ['approve', 'approve with suggestions', 'request changes'])}.`;
  const body = lines(d, length - verdict.length - 1, prefixes);
  // The summary stands apart from the comments: its line break doubled (the one character kept aside above).
  return { output: body.replace('\n', '\n\n') + verdict };
}

/** Prose of `length` characters with line breaks, for the block comment of code. */
export const commentText = (d: Draw, length: number): string => wrap(prose(d, length), 72);
