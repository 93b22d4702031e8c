import type { PlanContext } from '../../../plan-context.js';
import {
  SERVICE_ALIASES,
  SERVICE_NAME_FILLERS,
  SERVICE_WORDS_NOT_ALONE,
} from '../../../../schema/knowledge/thesaurus.js';
import { contentWords, normalize, stem, words } from './text.js';

export type Service = PlanContext['services'][number];

/** The catalogue's aliases (schema/knowledge), keyed the way keys are compared (stemmed: "drywall" is "drywal"). */
const SYNONYMS_BY_STEM: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(SERVICE_ALIASES).map(([k, v]) => [stem(k), v]),
);

const GENERIC_NAME_WORDS = new Set(SERVICE_NAME_FILLERS.map(stem));
const SYNONYM_ONLY_KEYS = new Set(SERVICE_WORDS_NOT_ALONE);

/** Category words: "a cleaning" narrows to the cleaning services but does not pick one. */
const CATEGORY_WORDS: Record<string, RegExp> = {
  cleaning: /\b(clean|cleaning|cleaner|cleaners|cleanup|clean-up|maid)\b/,
  repair: /\b(fix|repair|repairs|broken|handyman)\b/,
  install: /\b(install|installation|installing|mount|mounting|set up|hook up)\b/,
};

export interface ServiceMatch {
  /** Services the text clearly names, best first (usually one). */
  matches: Service[];
  /** When only a category was named ("a cleaning"), the candidates in that category. */
  candidates: Service[];
  /** Two services asked for together ("deep clean + windows"): both are wanted, not one of them. */
  joined?: boolean;
}

/**
 * What is built from the catalogue's names and aliases, kept per name: every message scored every
 * service, compiling a pattern per name and alias each time (the offline planner's largest cost in
 * the bench's CPU profile). The catalogue is small; the cap only bounds a store that keeps renaming.
 */
function memo<A, T>(keyOf: (a: A) => string, build: (a: A) => T): (a: A) => T {
  const cache = new Map<string, T>();
  return (a) => {
    const key = keyOf(a);
    let v = cache.get(key);
    if (v === undefined) {
      if (cache.size >= 2000) cache.clear();
      v = build(a);
      cache.set(key, v);
    }
    return v;
  };
}

const same = (phrase: string) => phrase;

const distinctiveKeys = memo((s: Service) => `${s.id}\u0000${s.name}`, computeKeys);

function computeKeys({ id, name }: Service): string[] {
  const fromName = words(name.replace(/[/-]/g, ' ')).map(stem);
  const fromId = id.replace(/^svc_/, '').split('_').map(stem);
  return [...new Set([...fromName, ...fromId])].filter((w) => !GENERIC_NAME_WORDS.has(w));
}

const namePattern = memo(same, (phrase: string) => {
  const p = normalize(phrase).replace(/[-]/g, '[- ]?').replace(/\s+/g, '\\s+');
  return new RegExp(`(^|[^a-z])${p}($|[^a-z])`);
});

const phraseIn = (text: string, phrase: string): boolean => namePattern(phrase).test(text);

interface Scored {
  s: Service;
  score: number;
  /** Named by its name or a word of it, not only described by a synonym. */
  named: boolean;
  /** Where its synonyms were found in the text. */
  spans: [number, number][];
}

/**
 * An alias's "..." is a short gap: "hang ... frames" is "hang a bunch of frames" as well as "hang frames", and
 * "fill ... prime" is "fill + prime" too.
 */
const ALIAS_GAP = "(?:\\s+(?:[a-z0-9']+|[+&/])){0,3}\\s+";

function aliasPattern(phrase: string): string {
  return (
    phrase
      .split(/\s*\.\.\.\s*/)
      // "end of tenancy" is "end-of-tenancy" too.
      .map((part) => normalize(part).replace(/[-]/g, '[- ]?').replace(/\s+/g, '[\\s-]+'))
      .join(ALIAS_GAP)
  );
}

// "tvs", "faucets": a synonym in the plural is the same word. matchAll runs a copy of the pattern,
// so the shared one's lastIndex never moves.
const aliasRegExp = memo(same, (phrase: string) => new RegExp(`(?<![a-z])${aliasPattern(phrase)}s?(?![a-z])`, 'g'));

function phraseSpans(text: string, phrase: string): [number, number][] {
  return [...text.matchAll(aliasRegExp(phrase))].map((m) => [m.index, m.index + m[0].length]);
}

function scoreService(s: Service, low: string, textStems: Set<string>): Scored {
  let score = 0;
  let named = false;
  const spans: [number, number][] = [];
  if (phraseIn(low, s.name)) {
    score += 10;
    named = true;
  }
  for (const key of distinctiveKeys(s)) {
    if (textStems.has(key) && !SYNONYM_ONLY_KEYS.has(key)) {
      score += 3;
      named = true;
    }
    for (const syn of SYNONYMS_BY_STEM[key] ?? []) {
      const found = phraseSpans(low, syn);
      if (!found.length) continue;
      score += syn.includes(' ') ? 4 : 2;
      spans.push(...found);
    }
  }
  return { s, score, named, spans };
}

const overlaps = (a: [number, number][], b: [number, number][]) =>
  a.some(([s1, e1]) => b.some(([s2, e2]) => s1 < e2 && s2 < e1));

/**
 * A problem described in two parts that two services of one kind fix ("the tap drips and there's a hole
 * in the wall"): both fit, so neither is picked over the other. Only when neither is named outright: a
 * service asked for by name stays the one meant, whatever else the message describes.
 */
function secondFit(scored: Scored[], matches: Service[]): Service | undefined {
  const top = scored[0];
  if (!top || top.named || matches.length !== 1) return undefined;
  const second = scored.find((x) => x.s.id !== top.s.id && !x.named && x.spans.length > 0);
  return second && !overlaps(second.spans, top.spans) ? second.s : undefined;
}

/** "the TV thing or the shelves", "the move-out clean or a deep clean": a choice offered between two services. */
const OR_BETWEEN =
  /^[\s,]*(?:thing\s+|one\s+|job\s+|clean\w*\s+)?(?:,\s*)?or(?:\s+(?:maybe|else|perhaps))?\s+(?:the|a|an|my)?\s*$/;

/** Services a kept one is offered beside with "or": both stay, so which one is asked, never guessed. */
const eitherOr = (low: string, scored: Scored[], matches: Service[]) => beside(low, scored, matches, OR_BETWEEN);

/** "deep clean + windows", "the tv mount and a fan": a second service asked for beside the first. */
const AND_BETWEEN = new RegExp(
  String.raw`^[\s,]*(?:thing\s+|one\s+|job\s+|clean\w*\s+)?(?:and|\+|plus|&|as well as)(?:\s+(?:also|then))?` +
    String.raw`\s+(?:the|a|an|my|some)?\s*$`,
);

/**
 * Services a kept one named outright is asked for beside: a weaker match joined to it by "and" is wanted too.
 * "a wobbly shelf and a dripping tap" names no service: two problems one visit may fix are not two visits.
 */
const alsoWanted = (low: string, scored: Scored[], matches: Service[]) =>
  beside(
    low,
    scored.filter((x) => !matches.includes(x.s) || x.named),
    matches.filter((m) => scored.some((x) => x.s === m && x.named)),
    AND_BETWEEN,
  );

/** The services found next to a kept one, with only `between` (an "or", an "and") between their words. */
function beside(low: string, scored: Scored[], matches: Service[], between: RegExp): Service[] {
  const kept = scored.filter((x) => matches.includes(x.s));
  return scored
    .filter((x) => !matches.includes(x.s) && x.spans.length)
    .filter((x) =>
      kept.some((k) =>
        k.spans.some(([ks, ke]) =>
          x.spans.some(([xs, xe]) => between.test(ke <= xs ? low.slice(ke, xs) : xe <= ks ? low.slice(xe, ks) : '')),
        ),
      ),
    )
    .map((x) => x.s);
}

/** Whether two kept services are asked for together ("a deep clean and the window cleaning"). */
function joinedByAnd(low: string, scored: Scored[], matches: Service[]): boolean {
  const [x, y] = matches.map((m) => scored.find((s) => s.s.id === m.id));
  return Boolean(x && y && alsoWanted(low, [x, y], [x.s]).length);
}

/** Services mentioned by name, keyword or synonym. */
/**
 * The planner asks what a message names many times while it reads one turn (the analysis, each intent, the
 * reply); the answer depends on the text and the catalogue only, so it is kept per catalogue (the array the
 * turn's context holds) and text.
 */
const matchCache = new WeakMap<readonly Service[], Map<string, ServiceMatch>>();

export function matchServices(text: string, services: readonly Service[]): ServiceMatch {
  let byText = matchCache.get(services);
  if (!byText) matchCache.set(services, (byText = new Map()));
  let found = byText.get(text);
  if (!found) {
    if (byText.size >= 200) byText.clear();
    found = scoreAll(text, services);
    Object.freeze(found.matches);
    Object.freeze(found.candidates);
    byText.set(text, found);
  }
  return found;
}

function scoreAll(text: string, services: readonly Service[]): ServiceMatch {
  const low = normalize(text);
  const textStems = contentWords(low);
  const scored = services.map((s) => scoreService(s, low, textStems)).filter((x) => x.score > 0);
  scored.sort((a, b) => b.score - a.score || a.s.id.localeCompare(b.s.id));
  let matches: Service[] = [];
  if (scored.length) {
    const top = scored[0]!.score;
    // Keep clear winners only; weak side-matches ("a fan" inside "ceiling fan") drop out.
    matches = scored.filter((x) => x.score >= Math.max(3, top * 0.75)).map((x) => x.s);
    if (!matches.length) matches = [scored[0]!.s];
    const second = secondFit(scored, matches);
    if (second) matches.push(second);
    for (const alt of eitherOr(low, scored, matches)) matches.push(alt);
    if (matches.length === 1) {
      const also = alsoWanted(low, scored, matches);
      if (also.length === 1) return { matches: [...matches, ...also], candidates: [], joined: true };
    } else if (matches.length === 2 && joinedByAnd(low, scored, matches))
      return { matches, candidates: [], joined: true };
  }
  let candidates: Service[] = [];
  if (!matches.length) {
    for (const [category, re] of Object.entries(CATEGORY_WORDS)) {
      if (re.test(low)) candidates.push(...services.filter((s) => s.category === category));
    }
    candidates = [...new Map(candidates.map((s) => [s.id, s])).values()];
  }
  return { matches, candidates };
}

export function serviceName(services: readonly Service[], id: string): string {
  return services.find((s) => s.id === id)?.name ?? id.replace(/^svc_/, '').replace(/_/g, ' ');
}
