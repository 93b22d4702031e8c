import { NOT_SERVED, placeNames, SERVICE_AREA } from '../../../../schema/business/service-area.js';
import {
  expansions,
  frameWords,
  idiomWords,
  matchedPhrases,
  QUESTION_FRAMES,
} from '../../../../schema/knowledge/thesaurus.js';
import { contentWords, stem } from '../analysis/text.js';

/*
 * How the offline planner reads a help-centre question: which words say what it is about (and how
 * much each counts), which only say how it is put ("how long does … take", "can you come …"), and
 * which place of the business's area (schema/business) it names.
 */

/** Words that say nothing about what the question is about. */
export const UNINFORMATIVE = new Set(
  [
    'work',
    'offer',
    'policy',
    'question',
    'home',
    'service',
    'company',
    'thing',
    'stuff',
    'way',
    'good',
    'time',
    'clean',
    'cleaning',
    'visit',
    'book',
    'booking',
    'technician',
    'house',
    'people',
    'someone',
    // The stemmer leaves a plural gerund one step short ("cleanings" → "cleaning").
    'cleanings',
    'bookings',
    'visits',
    // Pronouns the stop words miss.
    'he',
    'him',
    'his',
    'she',
    'her',
    'hers',
    'they',
    'them',
    'their',
    'myself',
    'yourself',
  ].map(stem),
);

/** Light verbs and particles: "put up", "gave out", "come off" mean little without the rest of their phrase. */
const LIGHT = new Set(
  'put up out off in on back down over away get got go going come came give gave take took make made set turn run'
    .split(' ')
    .map(stem),
);
export const PRICE_Q = new RegExp(
  String.raw`\b(how much|cost|costs|price|prices|pricing|charge|charges|fee|fees|rate|rates|expensive|cheap|` +
    // "i'll pay whatever": a willingness to pay, not a price asked.
    String.raw`(?<!\b(?:i'?ll|ill|i will|happy to|willing to|glad to|don'?t mind|dont mind) )pay)\b`,
  'i',
);

export function questionWords(question: string): Set<string> {
  const all = contentWords(question);
  const useful = new Set([...all].filter((w) => !UNINFORMATIVE.has(w)));
  const base = useful.size ? useful : all;
  const out = new Set(base);
  // The help-centre search expanded the question with the same thesaurus; read it the same way.
  for (const means of expansions(question)) for (const x of contentWords(means)) out.add(x);
  return out;
}

/**
 * Whether two words are one slip apart: a letter missing, extra, wrong or two swapped ("cancle", "refnud");
 * two slips for long words ("warrenty", "cartrige" are one). Real words two slips apart ("above", "alone")
 * are too many to tell from typos in a short word.
 */
function nearMiss(a: string, b: string): boolean {
  const limit = Math.min(a.length, b.length) >= 7 ? 2 : 1;
  if (Math.abs(a.length - b.length) > limit) return false;
  // Damerau-Levenshtein (optimal string alignment), so a swap counts once.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > limit) return false;
  }
  return d[a.length]![b.length]! <= limit;
}

/** Question words, with misspelt ones (5+ letters) replaced by the article word they nearly match. */
export function correctTypos(q: Set<string>, vocabulary: Set<string>): Set<string> {
  return new Set(corrections(q, vocabulary).values());
}

/** Each question word with the word it is read as: itself, or the article word it is a typo of. */
function corrections(q: Set<string>, vocabulary: Set<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of q) {
    if (vocabulary.has(w) || w.length < 5 || /\d/.test(w)) {
      out.set(w, w);
      continue;
    }
    // The stemmer is crude ("insured" is "insur", "insurance" stays): a stem that begins a word of the articles is it.
    const fix =
      [...vocabulary].find((v) => v.length >= 5 && v[0] === w[0] && nearMiss(w, v)) ??
      [...vocabulary].find((v) => v.length > w.length && v.startsWith(w));
    out.set(w, fix ?? w);
  }
  return out;
}

/** "How long does X take", typos in "how" and all: the frame words say what kind of answer, not what about. */
export const DURATION_Q =
  /\bhow long\b|\blong (?:does|do|will|would|should|is|it)\b[^.?!]*\btakes?\b|\bhow many (?:hours|minutes)\b/i;
const DURATION_FRAME = new Set(['long', 'take'].map(stem));
/** How a question is put, not what it is about ("can you come…", "what's the difference between…"). */
export const FRAME = new Set(
  ['come', 'what', 'whats', 'hes', 'shes', 'during', 'difference', 'differ', 'between', 'compare', 'versus', 'vs'].map(
    stem,
  ),
);
/** Asking whether we come to a place (not, say, what a visit there costs). */
const AREA_Q = /\b(?:serve|serves|service|servicing|cover|covers|come|go|travel|work|area|visit)\b/i;

export const escapeRe = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The place of the business's area (schema/business) the question names, served or not. */
export function namedPlace(question: string): { name: string; served: boolean } | undefined {
  const served = new Set(SERVICE_AREA.flatMap((t) => [t.name, ...t.neighbourhoods.map((x) => x.name)]));
  const names = placeNames().sort((a, b) => b.length - a.length);
  const name = names.find((x) => new RegExp(`(?<![a-z0-9])${escapeRe(x)}(?![a-z0-9])`, 'i').test(question));
  return name ? { name, served: served.has(name) && !NOT_SERVED.includes(name) } : undefined;
}

export function placeLead(question: string): string {
  const place = namedPlace(question);
  if (!place || !AREA_Q.test(question.replace(new RegExp(escapeRe(place.name), 'gi'), ' '))) return '';
  return place.served
    ? `Yes, ${place.name} is in our service area.`
    : `I'm sorry, ${place.name} is outside our service area.`;
}

/**
 * What the question asks about, each word weighted: its own words 1, a named place 3, expansions ½,
 * a light verb or particle ("put up") ½. A one-word translation of words the articles never use
 * ("upfront" → "deposit") counts in full.
 */
export function weightedTerms(question: string, vocabulary: Set<string>): Map<string, number> {
  // "is it possible…", "what happens if…", "is that a problem?": how it is asked (the search reads it so too).
  const framing = new Set([...frameWords(question)].map(stem));
  const all = new Set([...contentWords(question)].filter((w) => !framing.has(w)));
  let own = new Set([...all].filter((w) => !UNINFORMATIVE.has(w) && !FRAME.has(w)));
  if (!own.size) own = new Set([...all].filter((w) => !FRAME.has(w)));
  if (DURATION_Q.test(question)) own = new Set([...own].filter((w) => !DURATION_FRAME.has(w)));
  const place = namedPlace(question);
  const placeWords = place ? contentWords(place.name) : new Set<string>();
  // The words of an idiom ("running behind" → late delay) say what it means, not what they say alone.
  const idiomatic = contentWords([...idiomWords(question)].join(' '));
  const out = new Map<string, number>();
  for (const [w, read] of corrections(own, vocabulary)) {
    const weight = placeWords.has(read) ? 3 : LIGHT.has(w) || idiomatic.has(w) ? 0.5 : 1;
    out.set(read, Math.max(out.get(read) ?? 0, weight));
  }
  // A one-word translation of words the articles never use ("upfront" → "deposit") is what the question says.
  const translation = (key: string, means: Set<string>) =>
    means.size === 1 && [...contentWords(key)].every((w) => LIGHT.has(w) || !vocabulary.has(w));
  // "How much" says an amount is wanted (the answer's kind), not what about.
  for (const { key, means } of matchedPhrases(question).filter((m) => !QUESTION_FRAMES.includes(m.key))) {
    const meant = contentWords(means);
    // One phrase is one concept: the words of a long meaning share its weight ("forgot" → missed, satisfaction,
    // guarantee); a meaning of one or two words keeps it.
    const share = 0.5 / Math.sqrt(Math.max(1, meant.size - 1));
    for (const w of meant)
      if (translation(key, meant)) out.set(w, 1);
      else out.set(w, Math.max(out.get(w) ?? 0, share));
  }
  // The age rule of expansions() ("I'm 70" means the senior discount) has no phrase of its own.
  const phrased = new Set(matchedPhrases(question).map((m) => m.means));
  for (const means of expansions(question).filter((m) => !phrased.has(m)))
    for (const w of contentWords(means)) if (!out.has(w)) out.set(w, 0.5);
  return out;
}
