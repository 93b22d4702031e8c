/**
 * How a reply check finds a phrase in a reply. A phrase matches when it is a substring of the text
 * (after `fold`: lower case by default), or when it is one after clock times and dollar amounts are
 * written one way on both sides, so "2 p.m." finds "2:00 PM" and "$79.50" finds "79.50". The
 * literal comparison comes first, so the canonical one only ever adds matches.
 */

/** A `reply_includes` item: a phrase, any one of several phrases, or a regular expression. */
export type PhraseExpectation = string | { any: readonly string[] } | { $regex: string };

/** A grounding fact: a phrase, or any one of several. */
export type FactExpectation = string | readonly string[];

// "2pm", "2 PM", "2:00 p.m.", "02:00pm": an hour, optional minutes, then am/pm with or without dots.
// A dot after the "m" is part of "p.m." only when the "p" had one too (else it ends the sentence).
const CLOCK_TIME = /(?<![\d:])(\d{1,2})(?::([0-5]\d))?\s?([ap])(?:\.\s?m\.?|\s?m)(?![a-z])/gi;
// "$79.50", "$ 79": the sign goes, the number stays as written.
const DOLLAR_SIGN = /\$\s?(?=\d)/g;

/** Clock times as `H:MM am|pm` and dollar amounts without the `$`; everything else unchanged. */
export function canonicalTimesAndAmounts(text: string): string {
  return text
    .replace(CLOCK_TIME, (_m, h: string, mm: string | undefined, ap: string) => {
      return `${Number(h)}:${mm ?? '00'} ${ap.toLowerCase()}m`;
    })
    .replace(DOLLAR_SIGN, '');
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Canonical forms drop the characters that kept "2:00 pm" apart from "12:00 pm" and "79.50" apart
 * from "179.50", so there a number at either end of the phrase must not continue a longer one.
 */
function includesCanonical(text: string, phrase: string): boolean {
  const before = /^\d/.test(phrase) ? '(?<![\\d.,:])' : '';
  const after = /\d$/.test(phrase) ? '(?![\\d:]|[.,]\\d)' : '';
  return new RegExp(`${before}${escapeRegex(phrase)}${after}`).test(text);
}

const lowerCase = (s: string) => s.toLowerCase();

/** `phrase` is in `text`, literally or with times and amounts made canonical (both after `fold`). */
export function containsPhrase(text: string, phrase: string, fold: (s: string) => string = lowerCase): boolean {
  const t = fold(text);
  const p = fold(phrase);
  return t.includes(p) || includesCanonical(canonicalTimesAndAmounts(t), canonicalTimesAndAmounts(p));
}

export const alternativesOf = (e: PhraseExpectation | FactExpectation): readonly string[] =>
  typeof e === 'string' ? [e] : Array.isArray(e) ? e : 'any' in e ? e.any : [];

/** A phrase expectation holds for `text`: the phrase, one of the alternatives, or the regex (on the raw text). */
export function phraseHolds(
  text: string,
  e: PhraseExpectation | FactExpectation,
  fold?: (s: string) => string,
): boolean {
  if (typeof e === 'object' && '$regex' in e) return new RegExp(e.$regex, 'i').test(text);
  return alternativesOf(e).some((p) => containsPhrase(text, p, fold));
}

/** As a failure message reads it: `"a"`, `any of "a" | "b"`, or `/re/i`. */
export function describePhrase(e: PhraseExpectation | FactExpectation): string {
  if (typeof e === 'object' && '$regex' in e) return `/${e.$regex}/i`;
  const options = alternativesOf(e);
  const quoted = options.map((o) => `"${o}"`);
  return typeof e === 'string' ? quoted[0]! : `any of ${quoted.join(' | ')}`;
}
