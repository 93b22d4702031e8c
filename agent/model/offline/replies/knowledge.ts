import { type AnswerKind, answerKinds, statesKinds } from '../../../../schema/knowledge/answer-kinds.js';
import { idiomMeanings, translatedWords } from '../../../../schema/knowledge/thesaurus.js';
import type { PlanContext } from '../../../plan-context.js';
import { askedPart, asks } from '../analysis/asked-part.js';
import { matchServices } from '../analysis/services.js';
import { chatSentences, clip, contentWords, formatPrice, overlap, splitSentences, stem } from '../analysis/text.js';
import {
  correctTypos,
  DURATION_Q,
  escapeRe,
  FRAME,
  namedPlace,
  placeLead,
  PRICE_Q,
  questionWords,
  UNINFORMATIVE,
  weightedTerms,
} from './question-terms.js';
import { durationText } from './templates.js';

/*
 * Answering from the help centre: the retrieve step's articles (PlanContext.retrieved) are the
 * only source; the reply quotes the sentences that answer the question, never made-up facts.
 */

interface SnippetUnit {
  text: string;
  /** A " … " fragment break follows (search snippets are excerpts). */
  breakAfter: boolean;
}

/** Sentences of a search snippet, fragment breaks (" … ") kept as boundaries. */
function snippetUnits(snippet: string): SnippetUnit[] {
  const pieces = snippet.split(/\s*(?:…|\.\.\.)\s*/).map((p) => p.trim());
  const units: SnippetUnit[] = [];
  pieces.forEach((piece, pi) => {
    const sentences = splitSentences(piece);
    sentences.forEach((text, si) =>
      units.push({ text, breakAfter: si === sentences.length - 1 && pi < pieces.length - 1 }),
    );
  });
  return units;
}

const startsMid = (u: SnippetUnit) => /^[a-z]/.test(u.text);
const endsMid = (u: SnippetUnit) => !/[.!?)"”’]$/.test(u.text);

/** Units i..j as a faithful quote: "…" where the excerpt starts or ends mid-sentence. */
function quoteUnits(units: SnippetUnit[], i: number, j: number): string {
  let out = '';
  for (let k = i; k <= j; k++) out += (k > i ? (units[k - 1]!.breakAfter ? ' … ' : ' ') : '') + units[k]!.text;
  return `${startsMid(units[i]!) ? '…' : ''}${out}${endsMid(units[j]!) ? '…' : ''}`;
}

const CLOCK = /\d(?::\d\d)?\s?(?:a\.m\.|p\.m\.|am|pm)/i;
const CLOCK_RANGE = new RegExp(`\\b(?:from|between) [^.;]{0,12}?${CLOCK.source}?\\s*(?:to|and|until|-|–)\\s*\\d`, 'i');
/** "What's the difference between A and B": the answer names both. */
const DIFFERENCE_Q = /\b(?:difference|differ|differs|compare|compared|comparison|versus|vs\.?)\b/i;
const COMPARATIVE = /\b(?:on top of|in addition to|than|unlike|instead of|whereas|as well as|extra|more)\b/i;
/** "If you need someone today, see our same-day service article.": a pointer to the answer, not the answer. */
const POINTER = new RegExp(
  String.raw`\bsee (?:our|the) (?:(?:help )?articles? (?:on|about) )?([^.;:!?]+?)` +
    '(?: (?:help )?article)?(?: for details)?[.;:!?]',
  'i',
);

/** Whether a text gives this length of time ("90 minutes", "a 90-minute repair", "about 4 hours"). */
function statesLength(text: string, minutes: number): boolean {
  const hours = minutes / 60;
  const forms = [`${minutes} minutes`, `${minutes}-minute`];
  if (Number.isInteger(hours)) forms.push(`${hours} hour`, `${hours}-hour`);
  return forms.some((f) => text.toLowerCase().includes(f));
}

/** The named service's price and length from the catalogue, unless the quote already states what was asked. */
function priceLead(question: string, ctx: PlanContext, quote: string): string {
  const price = PRICE_Q.test(question);
  const duration = DURATION_Q.test(question);
  if (!price && !duration) return '';
  const named = matchServices(question, ctx.services).matches;
  if (named.length !== 1) return '';
  const s = named[0]!;
  // "How long can it be paused?": the quote gives a length of time about something else than the visit's own.
  if (!price && statesKinds(quote, DURATION_KIND) && !normalizedHas(quote, s.name)) return '';
  const quoted =
    (!price || quote.includes(formatPrice(s.price_cents))) && (!duration || statesLength(quote, s.duration_minutes));
  if (quoted) return '';
  return `${s.name} is ${formatPrice(s.price_cents)} and takes about ${durationText(s.duration_minutes)}.`;
}

const normalizedHas = (text: string, phrase: string) =>
  new RegExp(`(?<![a-z0-9])${escapeRe(phrase.toLowerCase())}(?![a-z0-9])`).test(text.toLowerCase());

const DURATION_KIND: ReadonlySet<AnswerKind> = new Set(['duration']);
const PRICE_KIND: ReadonlySet<AnswerKind> = new Set(['price']);
const PERCENT_KIND: ReadonlySet<AnswerKind> = new Set(['percent']);
const NOTICE_KIND: ReadonlySet<AnswerKind> = new Set(['notice']);

/** Asking whether we can or will do something ("is it possible to…", "will the cleaner…"). */
const CAPABILITY_Q = new RegExp(
  String.raw`\b(?:can|could|will|would) (?:you|the|your|they|he|she|someone|somebody|i|we)\b|` +
    String.raw`\bis it possible\b|\b(?:do|are) you\b`,
  'i',
);
/** A sentence saying what we don't do ("We do not mount…", "Our technicians will not move…"). */
const REFUSAL = new RegExp(
  String.raw`\b(?:we|our technicians|technicians|they) ` +
    String.raw`(?:do not|don't|cannot|can't|can not|will not|won't|are not able to|are unable to|never)\b`,
  'i',
);

type AskedSplit = { question: string; context: string };
type AskedServices = { named: PlanContext['services']; occasion?: AskedSplit };

/** How much a word only the story around a question says counts, beside the question's own words. */
const CONTEXT_WEIGHT = 0.3;

/**
 * The question's words, weighted: a sentence that only tells ("my dog ate the lockbox key") is context for the
 * one that asks ("anyway what time do u open on saturdays"), so its words count for less.
 */
function focusedTerms(question: string, vocabulary: Set<string>, occasion?: AskedSplit): Map<string, number> {
  const part = askedPart(question) ?? occasion;
  if (!part) return weightedTerms(question, vocabulary);
  const terms = weightedTerms(part.question, vocabulary);
  for (const [w, wt] of weightedTerms(part.context, vocabulary))
    terms.set(w, Math.max(terms.get(w) ?? 0, wt * CONTEXT_WEIGHT));
  return terms;
}

/**
 * The services a question is about. One named only in what the message tells ("getting a smart thermostat put
 * in. can my 16 yr old let them in?") is the occasion, not the subject: its price article does not answer.
 */
function askedServices(question: string, ctx: PlanContext): AskedServices {
  const named = matchServices(question, ctx.services).matches;
  if (!named.length) return { named };
  const sentences = chatSentences(question.trim());
  const asking = sentences.filter(asks);
  if (!asking.length || asking.length === sentences.length) return { named };
  // What it costs or how long it takes depends on the service, wherever the message names it.
  const about = asking.join(' ');
  const kinds = answerKinds(about);
  if (PRICE_Q.test(about) || DURATION_Q.test(about) || kinds.has('price') || kinds.has('duration')) return { named };
  if (asking.some((s) => matchServices(s, ctx.services).matches.length)) return { named };
  // The sentences that tell the occasion count as its context, as after "anyway, …".
  return { named: [], occasion: { question: about, context: sentences.filter((s) => !asks(s)).join(' ') } };
}

/** A short answer quoting the most relevant sentences of the best matching retrieved article. */
export function answerFromKb(question: string, ctx: PlanContext): { text: string; articleId: string } | undefined {
  const asked = questionWords(question);
  if (!asked.size) return undefined;
  const informative = [...contentWords(question)].filter((w) => !UNINFORMATIVE.has(w)).length;
  const { named, occasion } = askedServices(question, ctx);
  const nameWords = new Set(named.flatMap((s) => [...contentWords(s.name)]));
  const kinds = answerKinds(question);
  const capability = CAPABILITY_Q.test(question);
  const price = PRICE_Q.test(question) || kinds.has('price');
  // Asking for a clock time ("what time…", "the latest I can…"), not whether a day is open.
  const time = kinds.has('clock');
  const duration = DURATION_Q.test(question) || kinds.has('duration');
  const difference = DIFFERENCE_Q.test(question) && named.length >= 2;
  const place = namedPlace(question);
  const docs = ctx.retrieved.map((a) => {
    const head = `${a.title} ${a.topic.replace(/-/g, ' ')}`;
    // Weighed on title and text: a topic every article of a section shares would make its words look common.
    return {
      a,
      head,
      words: contentWords(`${head} ${a.snippet}`),
      own: contentWords(`${a.title} ${a.snippet}`),
      titleWords: contentWords(a.title),
    };
  });
  // Term weights over the retrieved articles (IDF): a word every article shares says little about which one answers.
  const vocabulary = new Set(docs.flatMap((d) => [...d.own]));
  const terms = focusedTerms(question, vocabulary, occasion);
  const df = (w: string) => docs.filter((d) => d.own.has(w)).length;
  // Smoothed: the retrieved articles are all on the question's topic, so its main word is in most of them too.
  const idf = new Map([...terms.keys()].map((w) => [w, Math.log(1 + (docs.length + 1) / (df(w) + 0.5))]));
  // A word the help centre uses in another sense counts no more than what it means here ("open" as
  // "business hours", not a calendar that is "open for the next 14 days").
  for (const [word, means] of translatedWords(question)) {
    const w = stem(word);
    const meant = means.map(stem).filter((m) => m !== w && idf.has(m));
    if (idf.has(w) && meant.length) idf.set(w, Math.min(idf.get(w)!, Math.max(...meant.map((m) => idf.get(m)!))));
  }
  // The words of a service the question names ("the move out clean") mean that service: in a text that does not
  // mention it, "move" is another sense ("move the visit").
  const serviceOnly = new Set([...nameWords].filter((w) => terms.has(w)));
  const mentions = (text: string) =>
    named.some((s) => normalizedHas(text, s.name) || matchServices(text, [s]).matches.length > 0);
  const weigh = (ws: Set<string>, text?: string) => {
    const sense = text === undefined || !serviceOnly.size || mentions(text);
    let sum = 0;
    for (const [w, wt] of terms) if (ws.has(w) && (sense || !serviceOnly.has(w))) sum += wt * idf.get(w)!;
    return sum;
  };
  const unitScore = (u: SnippetUnit) => {
    if (POINTER.test(u.text)) return 0;
    const sw = contentWords(u.text);
    let score = weigh(sw, u.text);
    // "Can you…?" is answered by what we don't do, when that is about the detail only this article has.
    if (capability && REFUSAL.test(u.text) && [...sw].some((w) => terms.has(w) && df(w) === 1)) score += 1;
    // The kind of fact asked for: an amount, a clock time (a range most), a length of time, a percentage.
    // An amount, or a fee taken away ("we waive the fee"): what "do we still get charged?" asks for.
    if (price && statesKinds(u.text, PRICE_KIND)) score += 1;
    if (time && CLOCK_RANGE.test(u.text)) score += 1.5;
    else if (time && CLOCK.test(u.text)) score += 0.5;
    if (duration && statesKinds(u.text, DURATION_KIND)) score += 1;
    if (kinds.has('percent') && statesKinds(u.text, PERCENT_KIND)) score += 1;
    if (kinds.has('notice') && statesKinds(u.text, NOTICE_KIND)) score += 1;
    if (nameWords.size && overlap(nameWords, sw) === nameWords.size) score += 1;
    if (place && normalizedHas(u.text, place.name)) score += 1;
    if (difference && COMPARATIVE.test(u.text) && overlap(nameWords, sw) > 0) score += 2;
    // Prefer whole sentences over ones the excerpt cut off.
    if (score > 0) score -= (startsMid(u) ? 0.25 : 0) + (endsMid(u) ? 0.25 : 0);
    return score;
  };
  // An idiom whose one-word meaning the article uses ("put on hold" → pause) matched its other words too.
  const idioms = idiomMeanings(question).map(stem);
  const idiomsMet = (ws: Set<string>) => idioms.filter((m) => ws.has(m)).length;
  const top = Math.max(0, ...ctx.retrieved.map((a) => a.score));
  // An article pointing to another retrieved one passes its match on to it.
  const pointedTo = new Map<string, number>();
  for (const d of docs)
    for (const u of snippetUnits(d.a.snippet)) {
      const phrase = POINTER.exec(u.text)?.[1];
      const title = phrase ? contentWords(phrase) : new Set<string>();
      const target = title.size ? docs.find((x) => x !== d && overlap(title, x.titleWords) === title.size) : undefined;
      if (target)
        pointedTo.set(target.a.id, Math.max(pointedTo.get(target.a.id) ?? 0, weigh(contentWords(u.text), u.text)));
    }
  const ranked = docs
    .map((d, i) => {
      const units = snippetUnits(d.a.snippet);
      const scores = units.map(unitScore);
      const text = `${d.head} ${d.a.snippet}`;
      // A service the question names, named in the article (both of them, for "the difference between").
      const servicesNamed = named.filter((s) => normalizedHas(text, s.name)).length;
      const serviceBonus = servicesNamed + (difference && servicesNamed === named.length ? 1 : 0);
      // The retriever weighs words over the whole help centre, with a real stemmer: about as much as a rare word.
      const prior = top > 0 ? (3 * Math.max(0, d.a.score)) / top : Math.max(0, 2 - i);
      const total =
        weigh(d.own, text) +
        0.5 * weigh(d.titleWords, d.a.title) +
        serviceBonus +
        prior +
        Math.max(0, ...scores) +
        (pointedTo.get(d.a.id) ?? 0);
      return { ...d, i, units, scores, q: correctTypos(asked, d.words), total };
    })
    .sort((x, y) => y.total - x.total || y.a.score - x.a.score || x.i - y.i);
  for (const { a, q, words: articleWords, units, scores } of ranked) {
    if (overlap(q, articleWords) + idiomsMet(articleWords) < (informative >= 7 ? 2 : 1)) continue;
    if (!units.length) continue;
    let best = 0;
    scores.forEach((sc, k) => {
      if (sc > scores[best]!) best = k;
    });
    let i = best;
    let j = best;
    // Add the neighbouring sentence of the same excerpt when it is relevant too and the quote stays short.
    const before = i > 0 && !units[i - 1]!.breakAfter ? scores[i - 1]! : -1;
    const after = j + 1 < units.length && !units[j]!.breakAfter ? scores[j + 1]! : -1;
    if (Math.max(before, after) > 0 && Math.max(before, after) >= scores[best]! / 2) {
      if (after >= before && quoteUnits(units, i, j + 1).length <= 320) j++;
      else if (before > after && quoteUnits(units, i - 1, j).length <= 320) i--;
    }
    // Search snippets are whole sentences picked for this question: quote them all when short.
    const whole = units.every((u) => !u.breakAfter) && a.snippet.length <= 520;
    const quote = whole ? a.snippet : clip(quoteUnits(units, i, j), 420);
    const priced = priceLead(question, ctx, quote);
    const lead = [placeLead(question), priced].filter(Boolean).join(' ');
    const follow =
      ctx.customer && named.length === 1 && !/\b(refund|cancel)/i.test(question)
        ? ` Would you like me to book ${/^[aeiou]/i.test(named[0]!.name) ? 'an' : 'a'} ${named[0]!.name} for you? ` +
          'Just tell me the day and time.'
        : ' Is there anything else I can help with?';
    const body = lead
      ? `${lead} Our help article "${a.title}" says: "${quote}"`
      : `Here's what our help article "${a.title}" says: "${quote}"`;
    return { text: `${body}${follow}`, articleId: a.id };
  }
  return undefined;
}

/** A limit of what we do, and the doing it limits ("We do not mount on brick, stone or over fireplaces."). */
const LIMIT = /\bwe (?:do not|don't|cannot|can't|can not|will not|won't|are not able to|are unable to|never) (\w+)/gi;
/** Words of when, not of what: a day or a time in a request is the booking's, not a detail to check. */
const WHEN_WORDS = new Set(
  (
    'today tomorrow tonight next week weekend morning afternoon evening noon midnight am pm oclock ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july ' +
    'august september october november december jan feb mar apr jun jul aug sep sept oct nov dec please'
  )
    .split(' ')
    .map(stem),
);

/**
 * A limit the help centre states about a detail of a request for one service ("mount my TV above the
 * fireplace"), quoted, so a request we cannot take as asked is not just booked. Strict, since it
 * speaks up unasked: the article names the service, the detail (a word beyond the service's name, the
 * day and the time) is in no other retrieved article, and what the sentence says we don't do is what
 * the request asks for.
 */
export function kbCaveat(request: string, ctx: PlanContext): string | undefined {
  const named = matchServices(request, ctx.services).matches;
  if (named.length !== 1) return undefined;
  const asked = contentWords(request);
  const serviceWords = new Set(ctx.services.flatMap((s) => [...contentWords(s.name)]));
  const details = [...asked].filter(
    (w) => !UNINFORMATIVE.has(w) && !FRAME.has(w) && !serviceWords.has(w) && !WHEN_WORDS.has(w) && !/\d/.test(w),
  );
  const docs = ctx.retrieved.map((a) => ({ a, words: contentWords(`${a.title} ${a.snippet}`) }));
  for (const w of details) {
    const holders = docs.filter((d) => d.words.has(w));
    if (holders.length !== 1 || !normalizedHas(holders[0]!.a.snippet, named[0]!.name)) continue;
    const { a } = holders[0]!;
    // The limit is on doing what was asked: its verb is one of the request's words.
    const limit = splitSentences(a.snippet).find(
      (x) => contentWords(x).has(w) && [...x.matchAll(LIMIT)].some((m) => asked.has(stem(m[1]!))),
    );
    if (limit) return `Please note that our help article "${a.title}" says: "${limit}"`;
  }
  return undefined;
}

/** Price and duration straight from the service catalogue, when the articles had nothing. */
export function answerFromServices(question: string, ctx: PlanContext): string | undefined {
  if (!PRICE_Q.test(question) && !DURATION_Q.test(question)) return undefined;
  const named = matchServices(question, ctx.services).matches;
  if (named.length !== 1) return undefined;
  const s = named[0]!;
  return (
    `${s.name} is ${formatPrice(s.price_cents)} and takes about ${durationText(s.duration_minutes)}.` +
    `${ctx.customer ? ' Would you like me to book one? Just tell me the day and time.' : ''}`
  );
}

export function noAnswerReply(ctx: PlanContext): string {
  return ctx.customer
    ? "I couldn't find anything in our help centre that answers that. " +
        'Would you like me to open a ticket so someone from our team can get back to you?'
    : "I couldn't find anything in our help centre that answers that. " +
        'Once a manager has linked your Slack account to your customer record, ' +
        'I can pass questions like this on to our team.';
}
