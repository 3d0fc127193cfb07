/** English prose of an exact length, built from the word banks and the key words of a task's description. */
import {
  DEFAULT_KEYWORDS,
  FILL_BY_LENGTH,
  LINK_WORDS,
  PHRASES,
  SHORT_TEMPLATES,
  STOP_WORDS,
  TEMPLATES,
} from './words.js';

/** What every shape draws from: the task's generator, its description and the description's key words. */
export interface Draw {
  rand: () => number;
  description: string;
  keywords: readonly string[];
}

/** One element of a list, drawn. */
export function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

/** An integer in [min, max], drawn. */
export const between = (rand: () => number, min: number, max: number): number =>
  min + Math.floor(rand() * (max - min + 1));

/** The first letter in upper case. */
export const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Up to eight distinct words of four letters or more of the description, in order, topped up with defaults. */
export function keywordsOf(description: string): string[] {
  const words: string[] = [];
  for (const word of description.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? []) {
    if (!STOP_WORDS.has(word) && !words.includes(word)) words.push(word);
    if (words.length === 8) break;
  }
  for (const word of DEFAULT_KEYWORDS) if (words.length < 3 && !words.includes(word)) words.push(word);
  return words;
}

/**
 * One sentence of a template (long, or short), a key word and a phrase. Only a template that opens with its key word
 * needs a capital, and that is the key word's: the sentence itself is not copied again.
 */
function sentence(d: Draw, short: boolean): string {
  const template = pick(d.rand, short ? SHORT_TEMPLATES : TEMPLATES);
  const word = pick(d.rand, d.keywords);
  const phrase = pick(d.rand, PHRASES);
  return template.replace('{k}', template.startsWith('{k}') ? capital(word) : word).replace('{p}', phrase);
}

/** Tries of a short sentence once a long one does not fit, before the closing words. */
const SHORT_TRIES = 6;

/** A sentence of exactly `length` characters (3 or more): short words, then closing words of the length left. */
function closing(rand: () => number, length: number): string {
  const words: string[] = [];
  let left = length - 1; // the full stop
  while (left > 14) {
    const word = pick(rand, LINK_WORDS);
    words.push(word);
    left -= word.length + (words.length > 1 ? 1 : 0);
  }
  const last = left - (words.length > 0 ? 1 : 0);
  words.push(pick(rand, FILL_BY_LENGTH[last] ?? ['ok']));
  return `${capital(words.join(' '))}.`;
}

/**
 * Sentences of exactly `length` characters: whole sentences while they fit, then a closing sentence of the exact
 * length left (a text of fewer than three characters is a cut "OK.").
 */
export function prose(d: Draw, length: number): string {
  if (length < 3) return 'OK.'.slice(0, Math.max(0, length));
  // The sentences are joined once at the end: one flat string, not a rope of a hundred concatenations.
  const sentences: string[] = [];
  let used = -1; // the spaces between sentences: one fewer than the sentences
  let misses = 0;
  while (misses <= SHORT_TRIES) {
    const next = sentence(d, misses > 0);
    // Room must remain for a closing sentence (a space and three characters) unless the text ends exactly.
    const left = length - used - 1 - next.length;
    if (left !== 0 && left < 4) {
      misses += 1;
      continue;
    }
    sentences.push(next);
    used += 1 + next.length;
    if (left === 0) return sentences.join(' ');
  }
  sentences.push(closing(d.rand, sentences.length === 0 ? length : length - used - 1));
  return sentences.join(' ');
}

/** `total` split into `parts` shares of about equal size, each at least `min` (when the total allows). */
export function shares(rand: () => number, total: number, parts: number, min = 12): number[] {
  const base = Math.max(min, Math.floor(total / parts));
  const out: number[] = [];
  let left = total;
  for (let i = 0; i < parts - 1; i++) {
    const share = Math.min(left, Math.max(min, base + between(rand, -base >> 2, base >> 2)));
    out.push(share);
    left -= share;
  }
  out.push(Math.max(0, left));
  return out;
}

/** Spaces turned into line breaks so that no line is much over `width`: the length is unchanged. */
export function wrap(text: string, width = 76): string {
  const words = text.split(' ');
  let out = words[0] ?? '';
  let line = out.length;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? '';
    const breaks = line + 1 + word.length > width;
    out += (breaks ? '\n' : ' ') + word;
    line = breaks ? word.length : line + 1 + word.length;
  }
  return out;
}

/** A count the description asks for ("three bullet points", "in 5 steps"), if any, within [min, max]. */
export function countAsked(description: string, min: number, max: number): number | undefined {
  const numbers = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const match =
    /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:bullet|point|step|key|item|idea|tip)/i.exec(
      description,
    );
  if (!match?.[1]) return undefined;
  const word = match[1].toLowerCase();
  const n = numbers.includes(word) ? numbers.indexOf(word) : Number(word);
  return n >= min && n <= max ? n : undefined;
}
