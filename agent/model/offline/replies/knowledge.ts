import type { PlanContext } from '../../../plan-context.js';
import { expansions } from '../../../../schema/knowledge/thesaurus.js';
import { matchServices } from '../analysis/services.js';
import { clip, contentWords, formatPrice, overlap, splitSentences, stem } from '../analysis/text.js';

/*
 * Answering from the help centre: the retrieve step's articles (PlanContext.retrieved) are the
 * only source; the reply quotes the sentences that answer the question, never made-up facts.
 */

/** Words that say nothing about what the question is about. */
const UNINFORMATIVE = new Set(
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
const PRICE_Q =
  /\b(how much|cost|costs|price|prices|pricing|charge|charges|fee|fees|pay|rate|rates|expensive|cheap)\b/i;
const TIME_Q = /\b(when|hours|open|close|closed|what time|saturdays?|sundays?|weekends?|holidays?|days?)\b/i;

function questionWords(question: string): Set<string> {
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
function correctTypos(q: Set<string>, vocabulary: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const w of q) {
    if (vocabulary.has(w) || w.length < 5 || /\d/.test(w)) {
      out.add(w);
      continue;
    }
    const fix = [...vocabulary].find((v) => v.length >= 5 && v[0] === w[0] && within2(w, v));
    out.add(fix ?? w);
  }
  return out;
}

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

function priceLead(question: string, ctx: PlanContext): string {
  if (!PRICE_Q.test(question) && !/\bhow long\b/i.test(question)) return '';
  const named = matchServices(question, ctx.services).matches;
  if (named.length !== 1) return '';
  const s = named[0]!;
  const hours = s.duration_minutes / 60;
  const duration = Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${s.duration_minutes} minutes`;
  return `${s.name} is ${formatPrice(s.price_cents)} and takes about ${duration}.`;
}

/** A short answer quoting the most relevant sentences of the best matching retrieved article. */
export function answerFromKb(question: string, ctx: PlanContext): { text: string; articleId: string } | undefined {
  const asked = questionWords(question);
  if (!asked.size) return undefined;
  const informative = [...contentWords(question)].filter((w) => !UNINFORMATIVE.has(w)).length;
  const named = matchServices(question, ctx.services).matches;
  const nameWords = new Set(named.flatMap((s) => [...contentWords(s.name)]));
  // The article sharing the most words with the question; the retriever's order breaks ties.
  const ranked = ctx.retrieved
    .map((a, i) => {
      const articleWords = contentWords(`${a.title} ${a.topic.replace(/-/g, ' ')} ${a.snippet}`);
      const q = correctTypos(asked, articleWords);
      const titleWords = contentWords(`${a.title} ${a.topic.replace(/-/g, ' ')}`);
      // The retriever's ranking knows synonyms and weights the planner doesn't: trust its top hits.
      const rankBonus = Math.max(0, 2 - i);
      return { a, i, q, hits: overlap(q, articleWords) + overlap(q, titleWords) + rankBonus };
    })
    .sort((x, y) => y.hits - x.hits || y.a.score - x.a.score || x.i - y.i);
  for (const { a, q } of ranked) {
    const articleWords = contentWords(`${a.title} ${a.topic.replace(/-/g, ' ')} ${a.snippet}`);
    if (overlap(q, articleWords) < (informative >= 7 ? 2 : 1)) continue;
    const units = snippetUnits(a.snippet);
    if (!units.length) continue;
    const scores = units.map((u) => {
      const sw = contentWords(u.text);
      let score = overlap(q, sw) * 2;
      if (PRICE_Q.test(question) && /\$\d/.test(u.text)) score += 2;
      if (TIME_Q.test(question) && /\d(?::\d\d)?\s?(?:a\.m\.|p\.m\.|am|pm)/i.test(u.text)) score += 1;
      if (nameWords.size && overlap(nameWords, sw) === nameWords.size) score += 3;
      // Prefer whole sentences over ones the excerpt cut off.
      if (score > 0) score -= (startsMid(u) ? 1 : 0) + (endsMid(u) ? 1 : 0);
      return score;
    });
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
    const priced = priceLead(question, ctx);
    const lead = priced && !quote.includes(priced.replace(/\.$/, '')) ? priced : '';
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

/** Price and duration straight from the service catalogue, when the articles had nothing. */
export function answerFromServices(question: string, ctx: PlanContext): string | undefined {
  if (!PRICE_Q.test(question) && !/\bhow long\b/i.test(question)) return undefined;
  const named = matchServices(question, ctx.services).matches;
  if (named.length !== 1) return undefined;
  const s = named[0]!;
  const hours = s.duration_minutes / 60;
  const duration = Number.isInteger(hours) ? `${hours} hour${hours === 1 ? '' : 's'}` : `${s.duration_minutes} minutes`;
  return (
    `${s.name} is ${formatPrice(s.price_cents)} and takes about ${duration}.` +
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
