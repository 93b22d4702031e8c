import type { Queryable } from '../../core/pg-pool.js';
import { type AnswerKind, answerKinds, statesKinds } from '../../schema/knowledge/answer-kinds.js';
import { paragraphSentences } from '../../schema/knowledge/sentences.js';
import { expansions, frameWords, idiomMeanings, tokens, translatedWords } from '../../schema/knowledge/thesaurus.js';
import type { SearchKnowledgeBaseArgs, SearchKnowledgeBaseResult } from '../../schema/tools/search-knowledge-base.js';
import type { ToolContext } from '../tool-handler.js';

/*
 * Retrieval over the help centre with Postgres alone (no embeddings, works on any hosted Postgres):
 *
 * 1. The question is split into words; each word becomes its English lexeme (stop words drop out).
 *    A word the help centre never uses (a typo: "cancle", "warrenty", "clen") is replaced by the
 *    closest lexeme of the help centre's own vocabulary by trigram similarity.
 * 2. A few everyday phrasings are expanded with the words the articles use ("call off" → cancel,
 *    "tap" → faucet), from the business's thesaurus (schema/knowledge/thesaurus.ts, which the
 *    offline planner reads too). Expansions count less than the customer's own words.
 * 3. Articles matching ANY lexeme (OR: AND fails on long questions) are ranked BM25-style:
 *    Σ idf(lexeme) × sat(ts_rank_cd(title A, topic B, body C)) — rare words count more than
 *    common ones, a title hit counts a lot, the tenth mention in a body little — plus the cover
 *    density of the whole query, which rewards the question's words appearing together.
 *    Measured on the seed's retrieval cases (51 questions): recall@5 51/51, recall@1 42/51.
 * 4. If nothing matches at all, the titles are compared by trigram word similarity.
 */

/** BM25's term-frequency saturation: the tenth mention of a word adds little. */
const K1 = 1.2;
/** Weight of the whole query's cover density (words of the question appearing close together). */
const PROXIMITY = 1;

interface Term {
  lexeme: string;
  tsquery: string;
  weight: number;
  /** The weight it would have as the customer's own word (an expansion's is less). */
  own: number;
}

export interface KbHit {
  id: string;
  title: string;
  topic: string;
  snippet: string;
  score: number;
}

const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The query's weighted lexemes, typos replaced by the closest word of the help centre. */
async function queryTerms(db: Queryable, query: string, useSynonyms: boolean, typoThreshold: number): Promise<Term[]> {
  const frame = frameWords(query);
  const all = [...new Set(queryWords(query))];
  const content = all.filter((w) => !frame.has(w));
  const own = (content.length ? content : all).slice(0, 64);
  // One phrase is one concept: the words of a long meaning share its weight ("forgot" → missed, satisfaction, …);
  // a meaning of one or two words keeps it.
  const share = new Map<string, number>();
  for (const means of useSynonyms ? expansions(query) : []) {
    const ws = tokens(means);
    for (const w of ws) share.set(w, Math.max(share.get(w) ?? 0, 1 / Math.sqrt(Math.max(1, ws.length - 1))));
  }
  const extra = [...share.keys()].filter((w) => !own.includes(w)).slice(0, 32);
  if (own.length === 0 && extra.length === 0) return [];
  const res = await db.query<{ lexeme: string; ndoc: number; n: number; sim: number; extra: boolean; share: number }>(
    // The vocabulary is a table kept by a trigger on kb_articles (migration 006), not ts_stat over
    // every article: that was a fifth of the database's time per search. It is named in each place,
    // not as a CTE: one referenced three times is materialized, a scan of every word per search,
    // where the table gives its key and first-letter (migration 008) indexes.
    `WITH n AS (SELECT count(*)::int AS n FROM kb_articles),
     tok AS (
       SELECT t.token, t.extra, t.share, lx.lexeme
       FROM unnest($1::text[], $2::boolean[], $4::float8[]) AS t(token, extra, share)
       CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', t.token))) AS lx(lexeme)
     ),
     resolved AS (
       SELECT tok.token, tok.extra, tok.share, v.word AS lexeme, v.ndoc, 1.0::float8 AS sim
       FROM tok JOIN kb_vocabulary v ON v.word = tok.lexeme
       UNION ALL
       SELECT tok.token, tok.extra, tok.share, f.word, f.ndoc, f.sim
       FROM tok
       CROSS JOIN LATERAL (
         SELECT v.word, v.ndoc, greatest(similarity(tok.token, v.word), similarity(tok.lexeme, v.word))::float8 AS sim
         FROM kb_vocabulary v
         -- Typos rarely change the first letter; requiring it keeps real words the help centre
         -- does not use ("appointment") from being "corrected" into unrelated ones ("point").
         WHERE length(tok.token) >= 4 AND NOT tok.extra AND tok.token !~ '^[0-9$]'
           AND left(v.word, 1) = left(tok.token, 1)
         ORDER BY sim DESC, v.ndoc DESC, v.word
         LIMIT 1
       ) f
       WHERE NOT EXISTS (SELECT 1 FROM kb_vocabulary v WHERE v.word = tok.lexeme) AND f.sim >= $3
     )
     SELECT r.lexeme, r.ndoc, n.n, max(r.sim) AS sim, bool_and(r.extra) AS extra, max(r.share)::float8 AS share
     FROM resolved r CROSS JOIN n
     GROUP BY r.lexeme, r.ndoc, n.n
     ORDER BY r.lexeme`,
    [
      [...own, ...extra],
      [...own.map(() => false), ...extra.map(() => true)],
      typoThreshold,
      [...own.map(() => 1), ...extra.map((w) => share.get(w)!)],
    ],
  );
  // BM25's idf: a word in every article says little, one in two articles says a lot.
  const idf = new Map(res.rows.map((r) => [r.lexeme, Math.log(1 + (r.n - r.ndoc + 0.5) / (r.ndoc + 0.5))]));
  const cap = translationCaps(query, [...idf.keys()], idf);
  return res.rows.map((r) => {
    const typo = Math.min(r.sim, 1);
    const own = Math.min(idf.get(r.lexeme)! * typo, cap.get(r.lexeme) ?? Number.POSITIVE_INFINITY);
    const weight = r.extra ? idf.get(r.lexeme)! * typo * 0.6 * r.share : own;
    return { lexeme: r.lexeme, tsquery: quoteLexeme(r.lexeme), weight, own: r.extra ? idf.get(r.lexeme)! * typo : own };
  });
}

/**
 * The question's words, as the search weighs them: a contraction's tail ("we're", "that'll") and a lone letter
 * ("w/o") are no words of their own, though Postgres' parser would make "re" and "o" rare, heavy lexemes.
 */
export function queryWords(query: string): string[] {
  return tokens(query)
    .filter((w) => !w.endsWith("n't"))
    .map((w) => w.replace(/'(?:s|re|ll|ve|d|m)$/, ''))
    .flatMap((w) => w.split('/'))
    .filter((w) => w.length > 1 || /\d/.test(w));
}

/** The lexeme a word of the query became: the longest it starts with ("cleaners" → "cleaner", "happy" → "happi"). */
function lexemeOf(word: string, lexemes: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const l of lexemes) {
    const stemOf = word.startsWith(l) || (l.endsWith('i') && word.startsWith(`${l.slice(0, -1)}y`));
    if (stemOf && l.length >= 3 && (!best || l.length > best.length)) best = l;
  }
  return best;
}

/**
 * A word the thesaurus translates counts no more than what it means: "cleaner" weighs as "technician",
 * not as the rare word of one article's "vacuum cleaner".
 */
function translationCaps(query: string, lexemes: readonly string[], idf: ReadonlyMap<string, number>) {
  const out = new Map<string, number>();
  for (const [word, means] of translatedWords(query)) {
    const own = lexemeOf(word, lexemes);
    const meant = means.map((m) => lexemeOf(m, lexemes)).filter((l): l is string => !!l && l !== own);
    if (!own || !meant.length) continue;
    const cap = Math.max(...meant.map((l) => idf.get(l)!));
    out.set(own, Math.min(out.get(own) ?? Number.POSITIVE_INFINITY, cap));
  }
  return out;
}

export async function searchKnowledgeBase(
  db: Queryable,
  query: string,
  limit: number,
  opts: { synonyms?: boolean } = {},
): Promise<KbHit[]> {
  let terms = await queryTerms(db, query, opts.synonyms ?? true, 0.4);
  let rows = await rankArticles(db, terms, limit);
  // Nothing matched: maybe every word was misspelled ("refnud?"); try looser typo correction.
  if (rows.length === 0) {
    terms = await queryTerms(db, query, opts.synonyms ?? true, 0.25);
    rows = await rankArticles(db, terms, limit);
  }
  if (rows.length === 0) {
    // Still nothing in common at the word level: compare the whole query with the titles.
    const res = await db.query<ArticleRow>(
      `SELECT id, title, topic, body AS snippet,
         greatest(word_similarity(lower($1), lower(title)), similarity(lower($1), lower(title)))::float8 AS score
       FROM kb_articles
       WHERE lower($1) <% lower(title) OR lower($1) % lower(title)
       ORDER BY score DESC, id
       LIMIT $2`,
      [query, limit],
    );
    rows = res.rows;
  }
  // The snippet's sentences are weighed like the articles were: a rare word of the question counts most.
  const wanted = terms.length ? termWeights(asked(terms, query)) : snippetWords(query);
  const kinds = answerKinds(query);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    topic: r.topic,
    snippet: bestSentences(r.snippet, wanted, 3, 520, kinds),
    score: Math.round(r.score * 10_000) / 10_000,
  }));
}

const STOP = new Set([
  'what',
  'when',
  'where',
  'which',
  'does',
  'have',
  'your',
  'with',
  'that',
  'this',
  'there',
  'about',
  'would',
  'could',
  'should',
  'will',
  'from',
  'they',
  'them',
  'their',
  'then',
  'than',
  'just',
  'like',
  'want',
  'need',
  'please',
  'thanks',
  'much',
  'many',
  'more',
  'some',
  'also',
]);

/** Crude stems (first five letters of words of four or more), enough to match "cancelling" with "cancellation". */
function stems(text: string, minLength = 4): Set<string> {
  return new Set(
    tokens(text)
      .filter((w) => w.length >= minLength && !STOP.has(w))
      .map((w) => w.slice(0, 5)),
  );
}

/**
 * The terms as the passage is picked: an idiom's one-word meaning ("do I get anything for that" → credit) is what
 * the question asks about, so within the article it counts as the customer's own word.
 */
function asked(terms: Term[], query: string): Term[] {
  const meant = idiomMeanings(query);
  if (!meant.length) return terms;
  const lexemes = terms.map((t) => t.lexeme);
  const idioms = new Set(meant.map((m) => lexemeOf(m, lexemes)).filter(Boolean));
  return terms.map((t) => (idioms.has(t.lexeme) ? { ...t, weight: Math.max(t.weight, t.own) } : t));
}

/** The ranking's weights (idf, typo, expansion) by crude stem; a short lexeme ("key") also matches its plural. */
function termWeights(terms: Term[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of terms) {
    const key = t.lexeme.slice(0, 5);
    if (key.length >= 3 && !STOP.has(t.lexeme)) out.set(key, Math.max(out.get(key) ?? 0, t.weight));
  }
  return out;
}

/** A short word of the question ("key") matches the longer words it begins ("keys"); a number ("30") never "300". */
const prefixOf = (k: string, s: string) => k.length < 5 && s.length > k.length && s.startsWith(k) && !/^\d/.test(k);

/** The question's words a sentence's stems match, each once: exactly, or a short one ("key") as a prefix ("keys"). */
function matchedKeys(set: ReadonlySet<string>, wanted: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of set) {
    const exact = wanted.get(s);
    if (exact !== undefined) out.set(s, exact);
    for (const [k, v] of wanted) if (prefixOf(k, s)) out.set(k, v);
  }
  return out;
}

const total = (m: ReadonlyMap<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * The question's words weighed again inside one article: a word in most of its sentences is what the
 * article is about (it was chosen for it), a word in one sentence is the condition that picks the passage
 * ("weekly plan … travel charge": the plan is everywhere, the travel surcharge in one sentence).
 */
function withinArticle(sentences: string[], wanted: ReadonlyMap<string, number>): Map<string, number> {
  const n = sentences.length;
  const sets = sentences.map((x) => stems(x, 3));
  const out = new Map<string, number>();
  for (const [k, w] of wanted) {
    const df = sets.filter((ss) => [...ss].some((s) => s === k || prefixOf(k, s))).length;
    out.set(k, df === 0 || n < 3 ? w : (w * Math.log(1 + n / df)) / Math.log(1 + n));
  }
  return out;
}

/** The stems a snippet's sentences are matched against: the question's own words (1) and their expansions (½). */
export function snippetWords(query: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of stems(expansions(query).join(' '))) out.set(w, 0.5);
  for (const w of stems(query)) out.set(w, 1);
  return out;
}

/** Weight of a sentence stating the kind of fact asked for ("how soon" → "within 5 business days"). */
const KIND_BONUS = 1.5;

interface Candidate {
  text: string;
  i: number;
  p: number;
  k: number;
  /** The question's words it matches, with their weights (after one of the article's questions, the question's too). */
  plain: Map<string, number>;
  /** The same, weighed within the article (see withinArticle). */
  condition: Map<string, number>;
  /** States the kind of fact asked for: 1, or ½ under a condition the question does not raise. */
  kind: number;
}

/** A sentence's opening condition ("On very heavy grease, …", "If you tell us at the door, …"). */
const OPENING_CONDITION = /^(?:if|when|whenever|on|for|during|unless|after|before|once|while|in case)\b([^,]{3,80}),/i;

/**
 * Whether a sentence states its fact under a condition none of the question's words name: "On very heavy
 * grease, … the price stays the same" answers "does it cost more?" less than "There is no extra charge."
 */
function unasked(text: string, wanted: ReadonlyMap<string, number>): boolean {
  const clause = OPENING_CONDITION.exec(text)?.[1];
  return clause !== undefined && matchedKeys(stems(clause, 3), wanted).size === 0;
}

/** The article's sentences as snippet candidates. */
function candidates(body: string, wanted: ReadonlyMap<string, number>, kinds: ReadonlySet<AnswerKind>): Candidate[] {
  const paragraphs = paragraphSentences(body);
  const specific = withinArticle(paragraphs.flat(), wanted);
  let i = 0;
  return paragraphs.flatMap((paragraph, p) =>
    paragraph.map((text, k) => {
      // An article's own question ("Need an older receipt?") is not the answer; the sentence after it is.
      const own = text.endsWith('?') ? new Set<string>() : stems(text, 3);
      if (own.size && k > 0 && paragraph[k - 1]!.endsWith('?')) for (const w of stems(paragraph[k - 1]!, 3)) own.add(w);
      const kind = !text.endsWith('?') && statesKinds(text, kinds) > 0 ? (unasked(text, wanted) ? 0.5 : 1) : 0;
      return { text, i: i++, p, k, plain: matchedKeys(own, wanted), condition: matchedKeys(own, specific), kind };
    }),
  );
}

/**
 * The snippet is whole sentences, not fragments cut mid-phrase: at most three sentences of the article,
 * in their original order. The first is the one with the question's condition, or one stating the kind
 * of fact asked for (an amount, a length of time, a clock time); the rest are picked on the question's
 * words, a neighbour of the first counting extra, the first sentence of the asked-for kind too. They are
 * picked best first while they fit, so the sentence with the fact is never the one cut for length.
 * Sentences are cut where the planner cuts them (schema/knowledge/sentences.ts), so "9:00 a.m." is never
 * "9:00 a.".
 */
export function bestSentences(
  body: string,
  wanted: ReadonlyMap<string, number>,
  max = 3,
  maxChars = 520,
  kinds: ReadonlySet<AnswerKind> = new Set(),
): string {
  const all = candidates(body, wanted, kinds);
  if (!all.length) return '';
  const bonus = (x: Candidate) => (x.kind > 0 ? KIND_BONUS : 0);
  const top = all.reduce((b, x) => (total(b.condition) + bonus(b) >= total(x.condition) + bonus(x) ? b : x));
  const topScore = total(top.plain);
  // The best match's neighbours in its paragraph ("… do not let them in. Call us at …") belong with it.
  const near = (x: Candidate) =>
    topScore > 0 && x.p === top.p && Math.abs(x.k - top.k) === 1 && !x.text.endsWith('?') ? topScore / 2 : 0;
  const picked = [top];
  let length = top.text.length;
  let kindQuoted = top.kind > 0;
  while (picked.length < max) {
    let best: { x: Candidate; gain: number; rank: number } | undefined;
    for (const x of all) {
      if (picked.includes(x) || length + 1 + x.text.length > maxChars) continue;
      const gain = total(x.plain) + (x.kind > 0 ? (kindQuoted ? KIND_BONUS / 4 : KIND_BONUS) : 0) + near(x);
      // Until a sentence states the kind of fact asked for, one that does goes first: the question's words
      // pick the passage, but "does that cost more?" is answered by the amount (or "no extra charge") alone.
      const rank = (kindQuoted ? 0 : x.kind) * 1000 + gain;
      if (!best || rank > best.rank) best = { x, gain, rank };
    }
    if (!best || best.gain <= 0) break;
    picked.push(best.x);
    length += 1 + best.x.text.length;
    kindQuoted ||= best.x.kind > 0;
  }
  const out = picked
    .sort((a, b) => a.i - b.i)
    .map((x) => x.text)
    .join(' ');
  return out.length > maxChars ? `${out.slice(0, maxChars - 1)}…` : out;
}

interface ArticleRow {
  id: string;
  title: string;
  topic: string;
  snippet: string;
  score: number;
}

/*
 * The sum over terms is taken in whatever order the plan joins them, and floating-point addition is not
 * associative: two articles with the same score could differ in the last bit, and which one came first
 * changed with the plan (before or after autovacuum's ANALYZE of a fresh database). Scores are rounded
 * before they are ordered, so equal scores tie and the id decides; the terms come in a fixed order too.
 */
async function rankArticles(db: Queryable, terms: Term[], limit: number): Promise<ArticleRow[]> {
  if (terms.length === 0) return [];
  const res = await db.query<ArticleRow>(
    `WITH q AS (SELECT t::tsquery AS t, w FROM unnest($1::text[], $2::float8[]) AS q(t, w)),
       anyq AS (SELECT string_agg(t::text, ' | ')::tsquery AS q FROM q),
       scored AS (
         SELECT a.id, a.title, a.topic, a.body, a.search,
           sum(q.w * (ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', a.search, q.t, 0) * ($4::float8 + 1))
             / (ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', a.search, q.t, 0) + $4::float8)) AS lexical
         FROM kb_articles a CROSS JOIN q CROSS JOIN anyq
         WHERE a.search @@ anyq.q AND a.search @@ q.t
         GROUP BY a.id
       ),
       ranked AS (
         SELECT s.*,
           round((s.lexical + $5::float8 * ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', s.search, anyq.q, 1))::numeric, 9)
             AS score
         FROM scored s CROSS JOIN anyq
         ORDER BY score DESC, s.id
         LIMIT $3
       )
       SELECT r.id, r.title, r.topic, r.score::float8 AS score, r.body AS snippet
       FROM ranked r
       ORDER BY r.score DESC, r.id`,
    [terms.map((t) => t.tsquery), terms.map((t) => t.weight), limit, K1, PROXIMITY],
  );
  return res.rows;
}

/** The tool's handler: the best articles for the customer's own words. */
export async function searchHelpCentre(
  args: SearchKnowledgeBaseArgs,
  ctx: ToolContext,
): Promise<SearchKnowledgeBaseResult> {
  const results = await searchKnowledgeBase(ctx.pool, args.query, args.limit);
  return { query: args.query, results };
}
