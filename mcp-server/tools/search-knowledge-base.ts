import type { Queryable } from '../../core/pg-pool.js';
import { paragraphSentences } from '../../schema/knowledge/sentences.js';
import { expansions, tokens } from '../../schema/knowledge/thesaurus.js';
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
  const own = [...new Set(tokens(query))].slice(0, 64);
  const extra = [...new Set((useSynonyms ? expansions(query) : []).flatMap(tokens))]
    .filter((w) => !own.includes(w))
    .slice(0, 32);
  if (own.length === 0 && extra.length === 0) return [];
  const res = await db.query<{ lexeme: string; ndoc: number; n: number; sim: number; extra: boolean }>(
    // The vocabulary is a table kept by a trigger on kb_articles (migration 006), not ts_stat over
    // every article: that was a fifth of the database's time per search.
    `WITH vocab AS (SELECT word, ndoc FROM kb_vocabulary),
     n AS (SELECT count(*)::int AS n FROM kb_articles),
     tok AS (
       SELECT t.token, t.extra, lx.lexeme
       FROM unnest($1::text[], $2::boolean[]) AS t(token, extra)
       CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', t.token))) AS lx(lexeme)
     ),
     resolved AS (
       SELECT tok.token, tok.extra, v.word AS lexeme, v.ndoc, 1.0::float8 AS sim
       FROM tok JOIN vocab v ON v.word = tok.lexeme
       UNION ALL
       SELECT tok.token, tok.extra, f.word, f.ndoc, f.sim
       FROM tok
       CROSS JOIN LATERAL (
         SELECT v.word, v.ndoc, greatest(similarity(tok.token, v.word), similarity(tok.lexeme, v.word))::float8 AS sim
         FROM vocab v
         -- Typos rarely change the first letter; requiring it keeps real words the help centre
         -- does not use ("appointment") from being "corrected" into unrelated ones ("point").
         WHERE length(tok.token) >= 4 AND NOT tok.extra AND tok.token !~ '^[0-9$]'
           AND left(v.word, 1) = left(tok.token, 1)
         ORDER BY sim DESC, v.ndoc DESC, v.word
         LIMIT 1
       ) f
       WHERE NOT EXISTS (SELECT 1 FROM vocab v WHERE v.word = tok.lexeme) AND f.sim >= $3
     )
     SELECT r.lexeme, r.ndoc, n.n, max(r.sim) AS sim, bool_and(r.extra) AS extra
     FROM resolved r CROSS JOIN n
     GROUP BY r.lexeme, r.ndoc, n.n`,
    [[...own, ...extra], [...own.map(() => false), ...extra.map(() => true)], typoThreshold],
  );
  return res.rows.map((r) => {
    // BM25's idf: a word in every article says little, one in two articles says a lot.
    const idf = Math.log(1 + (r.n - r.ndoc + 0.5) / (r.ndoc + 0.5));
    const typo = r.sim < 1 ? r.sim : 1;
    return { lexeme: r.lexeme, tsquery: quoteLexeme(r.lexeme), weight: idf * typo * (r.extra ? 0.6 : 1) };
  });
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
  const wanted = terms.length ? termWeights(terms) : snippetWords(query);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    topic: r.topic,
    snippet: bestSentences(r.snippet, wanted),
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

/** The ranking's weights (idf, typo, expansion) by crude stem; a short lexeme ("key") also matches its plural. */
function termWeights(terms: Term[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of terms) {
    const key = t.lexeme.slice(0, 5);
    if (key.length >= 3 && !STOP.has(t.lexeme)) out.set(key, Math.max(out.get(key) ?? 0, t.weight));
  }
  return out;
}

/** A sentence's stems weighed: each stem once, by its own weight or that of a short stem it starts with. */
function weighSentence(text: string, wanted: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const s of stems(text, 3)) {
    let w = wanted.get(s) ?? 0;
    for (const [k, v] of wanted) if (k.length < 5 && s.length > k.length && s.startsWith(k)) w = Math.max(w, v);
    sum += w;
  }
  return sum;
}

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
    const df = sets.filter((ss) => [...ss].some((s) => s === k || (k.length < 5 && s.startsWith(k)))).length;
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

/**
 * The snippet is whole sentences, not fragments cut mid-phrase: the (at most three) sentences of
 * the article that share the most words with the question, in their original order. A fact such
 * as "closed on Christmas Day" then arrives intact for the model to quote. Sentences are cut where
 * the planner cuts them (schema/knowledge/sentences.ts), so "9:00 a.m." is never "9:00 a.".
 */
export function bestSentences(body: string, wanted: ReadonlyMap<string, number>, max = 3, maxChars = 520): string {
  const specific = withinArticle(paragraphSentences(body).flat(), wanted);
  const sentences = paragraphSentences(body).flatMap((paragraph, p) => {
    const score = (weights: ReadonlyMap<string, number>) => {
      const scores = paragraph.map((text) => weighSentence(text, weights));
      // An article's own question ("Need an older receipt?") is not the answer; the sentence after it is.
      return paragraph.map((text, k) =>
        text.endsWith('?') ? 0 : scores[k]! + (k > 0 && paragraph[k - 1]!.endsWith('?') ? scores[k - 1]! : 0),
      );
    };
    const plain = score(wanted);
    const condition = score(specific);
    return paragraph.map((text, k) => ({ text, p, k, score: plain[k]!, condition: condition[k]! }));
  });
  // The best match is the sentence with the question's condition; the rest are picked on the question's words.
  const top = sentences.reduce<(typeof sentences)[number] | undefined>(
    (b, x) => (b && b.condition >= x.condition ? b : x),
    undefined,
  );
  // The best match's neighbours in its paragraph ("… do not let them in. Call us at …") belong with it.
  const near = (x: (typeof sentences)[number]) =>
    !!top && top.score > 0 && x !== top && x.p === top.p && Math.abs(x.k - top.k) === 1 && !x.text.endsWith('?');
  const picked = sentences
    .map((x, i) => ({
      text: x.text,
      i,
      weight: x === top && x.score > 0 ? Number.POSITIVE_INFINITY : x.score + (near(x) ? top!.score / 2 : 0),
    }))
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
    .slice(0, max)
    .filter((x, k) => k === 0 || x.weight > 0);
  // Taken best first while they fit, so the sentence with the fact is never the one cut for length.
  const kept: typeof picked = [];
  let length = -1;
  for (const x of picked) {
    if (kept.length && length + 1 + x.text.length > maxChars) continue;
    kept.push(x);
    length += 1 + x.text.length;
  }
  const out = kept
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
         SELECT s.*, s.lexical + $5::float8 * ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', s.search, anyq.q, 1) AS score
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
