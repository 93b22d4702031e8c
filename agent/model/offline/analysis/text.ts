import { createHash } from 'node:crypto';
import type { BaseMessage } from '@langchain/core/messages';
import { BUSINESS } from '../../../../schema/business/profile.js';
import { readContractions } from '../../../../schema/knowledge/chat-contractions.js';
import { splitSentences as splitPassage } from '../../../../schema/knowledge/sentences.js';

/** Plain text of a message, whatever its content shape (string or content blocks). */
export function messageText(m: BaseMessage | undefined): string {
  if (!m) return '';
  const c: unknown = m.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    return c
      .map((block: unknown) => {
        if (typeof block === 'string') return block;
        if (
          block &&
          typeof block === 'object' &&
          'text' in block &&
          typeof (block as { text: unknown }).text === 'string'
        ) {
          return (block as { text: string }).text;
        }
        return '';
      })
      .join('');
  }
  return '';
}

/** Lower-case, straight quotes, single spaces: the form the intent patterns are written against. */
export function normalize(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from about as into over after before is are was were ' +
    'be been being do does did done have has had i me my mine we us our you your yours it its this that these ' +
    'those there here what which who whom whose when where why how can could would should will shall may might ' +
    'must not no yes please thanks ' +
    'thank hi hello hey just so than then too very also any some all much many more most get got need want like know ' +
    'tell let help am im ive id dont doesnt isnt arent wont cant okay ok guys one ever really still'
  )
    .split(' ')
    // The business's own name says nothing about what a question is about.
    .concat(BUSINESS.shortName.toLowerCase().split(/\s+/)),
);

/** A crude, symmetric stemmer: good enough to match "windows" to "window" and "cleaning" to "clean". */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 5 && w.endsWith('ation')) w = w.slice(0, -5);
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ll')) w = w.slice(0, -1); // cancelled, cancellation → cancel
  return w;
}

export function words(text: string): string[] {
  return normalize(readContractions(text))
    .replace(/'/g, '')
    .split(/[^a-z0-9$]+/)
    .filter(Boolean);
}

/**
 * Stemmed content words (no stop words), as a set. `minLength` drops short words too, for callers that
 * want only the words a topic is named by; a number is kept whatever its length.
 */
export function contentWords(text: string, minLength = 2): Set<string> {
  return new Set(
    words(text)
      .filter((w) => !STOPWORDS.has(w) && (w.length >= minLength || /\d/.test(w)))
      .map(stem),
  );
}

export function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n;
}

/**
 * Sentences of a plain-text passage, cut where the help-centre search cuts its snippets: "9:00 a.m.",
 * "$74.50", "e.g. Visa" and web addresses stay whole.
 */
export function splitSentences(text: string): string[] {
  return splitPassage(text);
}

/**
 * Sentences of a customer's message: chat is typed in lower case ("any open tickets? also whats ur refund
 * timeline"), so any stop, question or exclamation mark before a space ends one, unlike the help centre's text.
 */
export const chatSentences = (text: string): string[] => text.split(/(?<=[.!?])\s+/);

/** Cut to at most `max` characters on a word boundary, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function capitalize(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** "a, b and c" */
export function joinList(items: string[], conj = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`;
}

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON from a tool message's text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const ORDINAL_WORDS: Record<string, number> = {
  first: 0,
  '1st': 0,
  one: 0,
  second: 1,
  '2nd': 1,
  two: 1,
  third: 2,
  '3rd': 2,
  three: 2,
  fourth: 3,
  '4th': 3,
  fifth: 4,
  '5th': 4,
};

/** "the second one", "2", "number 1": a position in a list we showed (0-based), if the text gives one. */
export function ordinalOf(text: string): number | undefined {
  const t = normalize(text);
  const m =
    /\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th)\b/.exec(t) ??
    /(?:^|\b(?:option|number|#|no\.?)\s*)([1-5])\s*[.!]?$/.exec(t) ??
    /^(?:the )?(one|two|three)\b(?! (?:on|at|for|in)\b)/.exec(t);
  if (!m) return undefined;
  const word = m[1]!;
  return word in ORDINAL_WORDS ? ORDINAL_WORDS[word] : Number(word) - 1;
}
