import { NOT_SERVED, placeNames, SERVICE_AREA } from '../../../../schema/business/service-area.js';
import { expansions } from '../../../../schema/knowledge/thesaurus.js';
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
  ].map(stem),
);
export const PRICE_Q =
  /\b(how much|cost|costs|price|prices|pricing|charge|charges|fee|fees|pay|rate|rates|expensive|cheap)\b/i;
export const TIME_Q = /\b(when|hours|open|close|closed|what time|saturdays?|sundays?|weekends?|holidays?|days?)\b/i;

export function questionWords(question: string): Set<string> {
  const all = contentWords(question);
  const useful = new Set([...all].filter((w) => !UNINFORMATIVE.has(w)));
  const base = useful.size ? useful : all;
  const out = new Set(base);
  // The help-centre search expanded the question with the same thesaurus; read it the same way.
  for (const means of expansions(question)) for (const x of contentWords(means)) out.add(x);
  return out;
}

/** Levenshtein distance, capped: cheap typo tolerance ("warrenty", "cartrige"). */
function within2(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]!);
    }
    if (rowMin > 2) return false;
    prev = cur;
  }
  return prev[b.length]! <= 2;
}

/** Question words, with misspelt ones (5+ letters) replaced by the article word they nearly match. */
export function correctTypos(q: Set<string>, vocabulary: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const w of q) {
    if (vocabulary.has(w) || w.length < 5 || /\d/.test(w)) {
      out.add(w);
      continue;
    }
    // The stemmer is crude ("insured" is "insur", "insurance" stays): a stem that begins a word of the articles is it.
    const fix =
      [...vocabulary].find((v) => v.length >= 5 && v[0] === w[0] && within2(w, v)) ??
      [...vocabulary].find((v) => v.length > w.length && v.startsWith(w));
    out.add(fix ?? w);
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

/** What the question asks about, each word weighted: its own words 1, a named place 3, expansions ½. */
export function weightedTerms(question: string, vocabulary: Set<string>): Map<string, number> {
  const all = contentWords(question);
  let own = new Set([...all].filter((w) => !UNINFORMATIVE.has(w) && !FRAME.has(w)));
  if (!own.size) own = new Set([...all].filter((w) => !FRAME.has(w)));
  if (DURATION_Q.test(question)) own = new Set([...own].filter((w) => !DURATION_FRAME.has(w)));
  const place = namedPlace(question);
  const placeWords = place ? contentWords(place.name) : new Set<string>();
  const out = new Map<string, number>();
  for (const w of correctTypos(own, vocabulary)) out.set(w, placeWords.has(w) ? 3 : 1);
  for (const means of expansions(question)) for (const w of contentWords(means)) if (!out.has(w)) out.set(w, 0.5);
  return out;
}
