import { SERVICE_ALIASES } from '../../../../schema/knowledge/thesaurus.js';
import { type Service, matchServices } from './services.js';
import { chatSentences, contentWords, normalize, stem, words } from './text.js';

/*
 * Whether a booking request asks for more than the service covers. Both readings come from the catalogue's own
 * words: a description's "… is not included" sentence, and the vocabulary of every name, description and alias.
 */

/** The catalogue's sentence saying what a service leaves out ("Exterior … glass is not included."). */
const NOT_INCLUDED = /^(.*?)\b(?:is|are) not included\b/i;

export interface Exclusion {
  /** The description's sentence, as written. */
  sentence: string;
  /** Words of its subject that the rest of the description never uses ("exterior", "outside"). */
  terms: string[];
}

const exclusionCache = new Map<string, Exclusion | null>();

/** What a service's description says it does not include, if it says. */
export function exclusionOf(s: Service): Exclusion | undefined {
  const key = s.description ?? '';
  let e = exclusionCache.get(key);
  if (e === undefined) {
    e = readExclusion(key) ?? null;
    if (exclusionCache.size > 200) exclusionCache.clear();
    exclusionCache.set(key, e);
  }
  return e ?? undefined;
}

function readExclusion(description: string): Exclusion | null {
  const sentences = description.split(/(?<=[.!?])\s+/);
  const sentence = sentences.find((x) => NOT_INCLUDED.test(x));
  if (!sentence) return null;
  const rest = contentWords(sentences.filter((x) => x !== sentence).join(' '));
  // A hyphenated compound ("above-ground-floor") is one term: its parts alone ("floor") say something else.
  const subject = normalize(NOT_INCLUDED.exec(sentence)![1]!)
    .split(/[\s,]+/)
    .filter((w) => /^[a-z][a-z-]{3,}$/.test(w) && w !== 'and' && !rest.has(stem(w)));
  return subject.length ? { sentence, terms: subject } : null;
}

/** "not outside", "no exterior", "without the outside": the part named to leave it out. */
const LEFT_OUT_BEFORE = /\b(?:not|no|without|except|but not|n't)\s+(?:the\s+|any\s+)?$/;

/**
 * The exclusion a booking request runs into: one of its terms in a sentence that also names the service, or says
 * "too" / "as well" / "both" of it ("inside and outside", "the exterior too"). A term merely nearby ("I'll be outside
 * in the garden", a sentence of its own) is not a part of the visit.
 */
export function partNotIncluded(text: string, s: Service): Exclusion | undefined {
  const ex = exclusionOf(s);
  if (!ex) return undefined;
  for (const sentence of chatSentences(normalize(text))) {
    const aboutIt = matchServices(sentence, [s]).matches.length > 0 || /\b(?:too|as well|also|both)\b/.test(sentence);
    if (!aboutIt) continue;
    for (const term of ex.terms) {
      const re = new RegExp(`(?<![a-z-])${term.replace(/-/g, '[- ]')}(?![a-z])`, 'g');
      for (const m of sentence.matchAll(re)) {
        if (!LEFT_OUT_BEFORE.test(sentence.slice(Math.max(0, m.index - 16), m.index))) return ex;
      }
    }
  }
  return undefined;
}

/**
 * A verb of work asked for, then what it is done to ("steam clean the carpets", "fix the gutters"). Not a past
 * participle: "want it cleaned proper" says how, and the thing was named before.
 */
const JOB = new RegExp(
  String.raw`\b(steam[- ]?clean(?:ing)?|shampoo(?:ing)?|clean(?:ing)?|wash(?:ing)?|fix(?:ing)?|repair(?:ing)?|` +
    String.raw`install(?:ing)?|mount(?:ing)?|paint(?:ing)?|replac(?:e|ing)|put up|hang(?:ing)?|assembl(?:e|ing)|` +
    String.raw`unblock(?:ing)?|unclog(?:ging)?|polish(?:ing)?)\s+(.+)$`,
);

/** Clauses of a request: two jobs are joined by "and", "also", "plus", a comma or a stop. */
const CLAUSE_BREAK = /\s*(?:[,;.!?]|\band\b|\balso\b|\bplus\b|\bthen\b|\bas well as\b)\s*/;

/** Where the thing worked on ends and the when begins ("fix it day after tomorrow at 3", "repair thursday 17th"). */
const WHEN_STARTS = new RegExp(
  String.raw`\s(?:on|at|by|for|this|next|tomorrow|tmrw|today|tonight|day after|before|after|around|between|from|` +
    String.raw`in the|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|` +
    String.raw`(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*|\d)\b.*$`,
);

/** A pronoun or nothing at all: the thing was named elsewhere, so this clause adds no job of its own. */
const NO_THING = /^(?:it|them|this|that|those|these|one|mine|ours|everything|all)\b/;

/** Words around a job that name no thing worked on. */
const NOT_A_THING = new Set(
  'too well pls plz please thanks thx someone somebody come round over today tomorrow morning afternoon evening ' +
    'same time day week asap possible thing things stuff bit little proper properly'.split(' '),
);

let vocabularyOf: { key: readonly Service[]; words: Set<string> } | undefined;

/** Every word the catalogue uses for what it does: names, descriptions and the aliases customers use. */
function catalogueVocabulary(services: readonly Service[]): Set<string> {
  if (vocabularyOf?.key === services) return vocabularyOf.words;
  const text = [
    ...services.flatMap((s) => [s.name, s.description ?? '']),
    ...Object.entries(SERVICE_ALIASES).flatMap(([k, v]) => [k, ...v]),
  ].join(' ');
  vocabularyOf = { key: services, words: contentWords(text.replace(/\.\.\./g, ' ')) };
  return vocabularyOf.words;
}

/**
 * A job asked beside a service that no service of the catalogue covers: "steam clean the carpets and do the
 * windows". Only a clause of its own that names no service, with a verb of work and a thing the catalogue's words
 * never mention; the job the service was named for is never this.
 */
export function jobNoServiceCovers(text: string, services: readonly Service[]): string | undefined {
  const vocabulary = catalogueVocabulary(services);
  for (const clause of normalize(text).split(CLAUSE_BREAK)) {
    const m = JOB.exec(clause);
    if (!m || matchServices(clause, services).matches.length) continue;
    const object = ` ${m[2]!}`.replace(WHEN_STARTS, '').trim();
    if (!object || NO_THING.test(object.replace(/^(?:the|a|an|my|our)\s+/, ''))) continue;
    const things = words(object)
      .filter((w) => !/\d/.test(w) && !NOT_A_THING.has(w))
      .filter((w) => contentWords(w).size > 0);
    if (things.length && !things.some((w) => vocabulary.has(stem(w)))) return `${m[1]} ${object}`;
  }
  return undefined;
}
