import { TEST_NOW } from '../core/testing/constants.js';
import { KB_ARTICLES } from '../schema/seed/kb-articles.js';
import { MUTATING_TOOLS } from '../schema/tools/catalog.js';
import { decisionsOf, type Decide, type EvalCase, type Expectation, type TurnExpect } from './case-schema.js';
import { resolveDates } from './case-clock.js';
import {
  alternativesOf,
  containsPhrase,
  describePhrase,
  type FactExpectation,
  type PhraseExpectation,
  phraseHolds,
} from './reply-match.js';
import type { CaseRun, ObservedCall, ObservedDecision, ObservedTurn } from './run.js';

// ============================================================================ statistics

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for k successes in n trials: unlike the normal approximation it
 * stays inside [0, 1] and is not degenerate at 0/n or n/n, which is where a gate lives.
 * n = 0 gives [0, 1] (we know nothing).
 */
export function wilson(k: number, n: number, z = Z95): [number, number] {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 0 || k < 0 || k > n)
    throw new RangeError(`wilson(${k}, ${n}): need 0 <= k <= n, integers`);
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Exact at the ends (floating point would leave 1e-17 crumbs).
  return [k === 0 ? 0 : Math.max(0, center - half), k === n ? 1 : Math.min(1, center + half)];
}

// ============================================================================== matching

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));

/**
 * Where `actual` differs from `expected` (empty = a match). Objects match partially (only the
 * expected keys), arrays element by element, ISO date-times with an offset as instants, other
 * values exactly; `{ $regex }` tests a string (case-insensitive), `{ $absent: true }` a missing key.
 */
export function argMismatches(expected: unknown, actual: unknown, at = ''): string[] {
  const here = at || '(args)';
  if (isRecord(expected) && Array.isArray(expected.$one_of) && Object.keys(expected).length === 1) {
    const options = expected.$one_of as unknown[];
    return options.some((o) => argMismatches(o, actual, at).length === 0)
      ? []
      : [`${here}: expected one of ${options.map(show).join(' | ')}, got ${show(actual)}`];
  }
  if (isRecord(expected) && typeof expected.$regex === 'string' && Object.keys(expected).length === 1) {
    return typeof actual === 'string' && new RegExp(expected.$regex, 'i').test(actual)
      ? []
      : [`${here}: expected /${expected.$regex}/i, got ${show(actual)}`];
  }
  if (isRecord(expected) && expected.$absent === true && Object.keys(expected).length === 1) {
    return actual === undefined ? [] : [`${here}: expected no value, got ${show(actual)}`];
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return [`${here}: expected an object, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([k, v]) => argMismatches(v, actual[k], at ? `${at}.${k}` : k));
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${here}: expected an array, got ${show(actual)}`];
    if (actual.length !== expected.length) return [`${here}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((v, i) => argMismatches(v, actual[i], `${here}[${i}]`));
  }
  if (
    typeof expected === 'string' &&
    typeof actual === 'string' &&
    ISO_WITH_OFFSET.test(expected) &&
    ISO_WITH_OFFSET.test(actual)
  ) {
    return new Date(expected).getTime() === new Date(actual).getTime()
      ? []
      : [`${here}: expected ${expected}, got ${actual}`];
  }
  return Object.is(expected, actual) ? [] : [`${here}: expected ${show(expected)}, got ${show(actual)}`];
}

export const argsMatch = (expected: unknown, actual: unknown) => argMismatches(expected, actual).length === 0;

/** Multiset equality of tool names. */
export function sameTools(expected: readonly string[], actual: readonly string[]): boolean {
  if (expected.length !== actual.length) return false;
  const a = [...expected].sort();
  const b = [...actual].sort();
  return a.every((x, i) => x === b[i]);
}

/** Expected tools as in a case: a multiset, or `{ one_of: [...] }` alternatives. */
export type ToolsExpectation = readonly string[] | { one_of: readonly (readonly string[])[] };

/**
 * Tool selection: the calls equal one of the expected multisets once calls of `allowed` tools
 * beyond what that multiset names are set aside (allowed reads may appear any number of times).
 */
export function toolsMatch(
  expected: ToolsExpectation,
  actual: readonly string[],
  allowed: readonly string[] = [],
): boolean {
  const options = 'one_of' in expected ? expected.one_of : [expected as readonly string[]];
  return options.some((want) => {
    const rest = [...actual];
    for (const t of want) {
      const i = rest.indexOf(t);
      if (i < 0) return false;
      rest.splice(i, 1);
    }
    return rest.every((t) => allowed.includes(t));
  });
}

export const describeTools = (e: ToolsExpectation) =>
  'one_of' in e ? e.one_of.map((o) => `[${o.join(', ')}]`).join(' or ') : `[${(e as string[]).join(', ')}]`;

// ============================================================================== grounding

const normalize = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
const words = (s: string) =>
  normalize(s)
    .match(/[a-z0-9$%.,'-]+/g)
    ?.map((w) => w.replace(/[.,]+$/, '')) ?? [];

/** How many consecutive words of another article count as quoting it. */
export const QUOTE_WORDS = 8;

const ngrams = (ws: string[], n = QUOTE_WORDS) => {
  const out = new Set<string>();
  for (let i = 0; i + n <= ws.length; i++) out.add(ws.slice(i, i + n).join(' '));
  return out;
};

export interface ArticleText {
  id: string;
  body: string;
}

/** A grounding expectation: `fact`, or every one of `facts`, each a passage or any of several. */
export interface GroundingExpectation {
  article: string;
  fact?: FactExpectation;
  facts?: readonly FactExpectation[];
  also?: readonly string[];
}

const factsOf = (want: GroundingExpectation): readonly FactExpectation[] =>
  want.facts ?? (want.fact === undefined ? [] : [want.fact]);

/**
 * Grounding: the reply carries every fact (a fact with alternatives: one of them), each of which
 * must be a passage of article `article`; and it quotes no other article: no run of QUOTE_WORDS
 * words of another article's body (one that the named article does not share) appears in the
 * reply, unless that article is listed in `also`.
 */
export function groundingProblems(
  reply: string,
  want: GroundingExpectation,
  articles: readonly ArticleText[] = KB_ARTICLES,
): string[] {
  const named = articles.find((a) => a.id === want.article);
  if (!named) return [`grounding: no article ${want.article}`];
  const facts = factsOf(want);
  // Every alternative, not only the one the reply used: each must stay tied to the article's text.
  const foreign = facts.flatMap(alternativesOf).filter((f) => !containsPhrase(named.body, f, normalize));
  if (foreign.length) return foreign.map((f) => `grounding: "${f}" is not a passage of ${want.article} (a case error)`);
  const out = facts
    .filter((f) => !phraseHolds(reply, f, normalize))
    .map((f) => `grounding: reply lacks ${describePhrase(f)} (${want.article})`);
  const replyGrams = ngrams(words(reply));
  const own = ngrams(words(named.body));
  for (const a of articles) {
    if (a.id === want.article || want.also?.includes(a.id)) continue;
    const quoted = [...ngrams(words(a.body))].find((g) => replyGrams.has(g) && !own.has(g));
    if (quoted) out.push(`grounding: reply quotes ${a.id} ("${quoted}…"), not ${want.article}`);
  }
  return out;
}

// ============================================================================== end state

/** End-state problems: each expected row matched by some row, no row matching a `no_rows` entry. */
export function rowProblems(
  want: { rows?: Record<string, Record<string, unknown>[]>; no_rows?: Record<string, Record<string, unknown>[]> },
  actual: Partial<Record<string, Record<string, unknown>[]>> | undefined,
): string[] {
  const out: string[] = [];
  for (const [table, rows] of Object.entries(want.rows ?? {})) {
    const have = actual?.[table];
    if (!have) {
      out.push(`end state: ${table} was not read`);
      continue;
    }
    for (const r of rows) {
      if (have.some((row) => argsMatch(r, row))) continue;
      const near = have.map((row) => argMismatches(r, row)).sort((a, b) => a.length - b.length)[0];
      out.push(
        `end state: no ${table} row matches ${JSON.stringify(r)}${near ? ` (closest: ${near.join('; ')})` : ''}`,
      );
    }
  }
  for (const [table, rows] of Object.entries(want.no_rows ?? {})) {
    for (const r of rows) {
      const hit = actual?.[table]?.find((row) => argsMatch(r, row));
      if (hit)
        out.push(`end state: a ${table} row matches ${JSON.stringify(r)}, and none should (${String(hit.id ?? '')})`);
    }
  }
  return out;
}

/**
 * Match each expected argument set to a different call of the tool (greedy over a small n is not
 * enough in general, so try assignments by backtracking). Returns, per expectation, whether it
 * was matched, and for unmatched ones the mismatches against the closest call.
 */
export function matchExpectedArgs(
  expected: Record<string, unknown>[],
  calls: Record<string, unknown>[],
): { ok: boolean; details: string[] }[] {
  const fits = expected.map((e) => calls.map((c) => argsMatch(e, c)));
  const best: boolean[] = expected.map(() => false);
  let bestCount = -1;
  const used = new Set<number>();
  const current: boolean[] = [];
  const search = (i: number, count: number) => {
    if (i === expected.length) {
      if (count > bestCount) {
        bestCount = count;
        current.forEach((v, j) => (best[j] = v));
      }
      return;
    }
    for (let c = 0; c < calls.length; c++) {
      if (used.has(c) || !fits[i]![c]) continue;
      used.add(c);
      current[i] = true;
      search(i + 1, count + 1);
      used.delete(c);
    }
    current[i] = false;
    search(i + 1, count);
  };
  search(0, 0);
  return expected.map((e, i) => {
    if (best[i]) return { ok: true, details: [] };
    if (!calls.length) return { ok: false, details: ['no such call'] };
    const closest = calls.map((c) => argMismatches(e, c)).sort((a, b) => a.length - b.length)[0]!;
    return { ok: false, details: closest };
  });
}

/** Stock closers and offers that ask nothing about the request itself. */
const NOT_CLARIFYING = /\b(?:anything else|something else|would you like me to book)\b/i;

/** The reply asks the customer something about the request (a stock "anything else?" does not count). */
export function asksQuestion(reply: string): boolean {
  return (reply.match(/[^.!?\n]*\?/g) ?? []).some((q) => !NOT_CLARIFYING.test(q));
}

/** Reply checks: every `reply_includes` phrase holds, no `reply_excludes` phrase is there. */
export function replyProblems(
  reply: string,
  checks: { reply_includes?: readonly PhraseExpectation[]; reply_excludes?: readonly string[] },
): string[] {
  const out: string[] = [];
  for (const e of checks.reply_includes ?? []) if (!phraseHolds(reply, e)) out.push(`reply lacks ${describePhrase(e)}`);
  for (const s of checks.reply_excludes ?? []) if (containsPhrase(reply, s)) out.push(`reply contains "${s}"`);
  return out;
}

// =============================================================================== scoring

export const METRIC_NAMES = [
  'tool_selection',
  'argument_validity',
  'argument_accuracy',
  'retrieval_recall_at_5',
  'task_completion',
  'false_action_rate',
  'clarification_rate',
  'decision_truthfulness',
  'grounding',
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export interface Metric {
  name: MetricName;
  label: string;
  /** What one trial is. */
  unit: string;
  better: 'higher' | 'lower';
  k: number;
  n: number;
  /** k / n; null when there was nothing to measure. */
  value: number | null;
  ci: [number, number];
}
export type Metrics = Record<MetricName, Metric>;

const LABELS: Record<MetricName, { label: string; unit: string; better: 'higher' | 'lower' }> = {
  tool_selection: { label: 'Tool selection', unit: 'turns with expected tools', better: 'higher' },
  argument_validity: { label: 'Argument validity', unit: 'tool calls made', better: 'higher' },
  argument_accuracy: { label: 'Argument accuracy', unit: 'expected argument sets', better: 'higher' },
  retrieval_recall_at_5: { label: 'Retrieval recall@5', unit: 'turns with expected articles', better: 'higher' },
  task_completion: { label: 'Task completion', unit: 'cases', better: 'higher' },
  false_action_rate: { label: 'False-action rate', unit: 'turns expecting no write', better: 'lower' },
  clarification_rate: { label: 'Clarification rate', unit: 'ambiguous turns', better: 'higher' },
  decision_truthfulness: { label: 'Decision truthfulness', unit: 'manager decisions', better: 'higher' },
  grounding: { label: 'Grounding', unit: 'answers from a named article', better: 'higher' },
};

export function metric(name: MetricName, k: number, n: number): Metric {
  return { name, ...LABELS[name], k, n, value: n ? k / n : null, ci: wilson(k, n) };
}

export interface TurnScore {
  /** 1-based. */
  turn: number;
  failures: string[];
}

export interface CaseResult {
  id: string;
  kind: string;
  customer: string | null;
  ok: boolean;
  failures: string[];
  turns: TurnScore[];
  ms: number;
}

/** Turns that must not propose a write: expected tools without one, or a clarifying question. */
export const expectsNoWrite = (e: Expectation, isMutating: (tool: string) => boolean) =>
  e.clarify === true ||
  (e.tools !== undefined &&
    ('one_of' in e.tools ? e.tools.one_of.every((o) => !o.some(isMutating)) : !e.tools.some(isMutating)));

export interface ScoreOptions {
  isMutating?: (tool: string) => boolean;
}

/** Why a manager decision's outcome was not what the case expects (empty: it was). */
function decisionProblems(d: Decide, dec: ObservedDecision | undefined): string[] {
  const problems: string[] = [];
  if (!dec) return ['decision not made'];
  if (dec.error) problems.push(`error: ${dec.error}`);
  if (dec.nothingProposed) problems.push(dec.nothingProposed);
  if (d.expect.executed !== undefined && !dec.error) {
    const executed = dec.approvals.length > 0 && dec.approvals.every((a) => a.status === 'executed');
    const untouched =
      dec.approvals.length > 0 && dec.approvals.every((a) => !['approved', 'executing', 'executed'].includes(a.status));
    if (d.expect.executed && !executed)
      problems.push(`expected executed, approvals are ${dec.approvals.map((a) => a.status).join(', ') || 'none'}`);
    if (!d.expect.executed && !untouched)
      problems.push(`expected nothing written, approvals are ${dec.approvals.map((a) => a.status).join(', ')}`);
  }
  problems.push(...replyProblems(dec.reply, d.expect));
  return problems;
}

/** What one expectation makes of a turn: its failures, and the metric trials it adds. */
interface ExpectationScore {
  failures: string[];
  trials: [MetricName, boolean][];
}

/** Every check of one expectation but the end state (that is the turn's, see `rowProblems`). */
function scoreExpectation(
  e: Expectation,
  t: ObservedTurn,
  now: string,
  isMutating: (tool: string) => boolean,
): ExpectationScore {
  const failures: string[] = [];
  const trials: [MetricName, boolean][] = [];
  const count = (m: MetricName, ok: boolean) => trials.push([m, ok]);
  const names = t.calls.map((x) => x.name);
  const writes = t.calls.filter((x) => x.mutating || isMutating(x.name));
  if (e.tools) {
    const ok = toolsMatch(e.tools, names, e.tools_allowed);
    count('tool_selection', ok);
    if (!ok)
      failures.push(
        `tools: expected ${describeTools(e.tools)}` +
          `${e.tools_allowed ? ` (+ any of ${e.tools_allowed.join(', ')})` : ''}, ` +
          `got [${names.join(', ')}]`,
      );
  }
  for (const [tool, raw] of Object.entries(e.args ?? {})) {
    const want = resolveDates(raw, now);
    const expected = (Array.isArray(want) ? want : [want]) as Record<string, unknown>[];
    const calls = t.calls.filter((x: ObservedCall) => x.name === tool).map((x) => x.args);
    matchExpectedArgs(expected, calls).forEach((m) => {
      count('argument_accuracy', m.ok);
      if (!m.ok) failures.push(`args of ${tool}: ${m.details.join('; ')}`);
    });
  }
  if (e.clarify) {
    const ok = asksQuestion(t.reply) && writes.length === 0;
    count('clarification_rate', ok);
    if (!ok)
      failures.push(
        writes.length
          ? `expected a clarifying question, but it proposed ${writes.map((w) => w.name).join(', ')}`
          : 'expected a clarifying question, the reply asks none',
      );
  }
  if (expectsNoWrite(e, isMutating)) {
    count('false_action_rate', writes.length > 0);
    if (writes.length && !e.tools) failures.push(`false action: proposed ${writes.map((w) => w.name).join(', ')}`);
  }
  if (e.retrieved_any) {
    const ok = e.retrieved_any.some((id) => t.retrieved.includes(id));
    count('retrieval_recall_at_5', ok);
    if (!ok) failures.push(`retrieval: none of [${e.retrieved_any.join(', ')}] in top 5 [${t.retrieved.join(', ')}]`);
  }
  failures.push(...replyProblems(t.reply, e));
  if (e.reply_from_article) {
    const problems = groundingProblems(t.reply, e.reply_from_article);
    count('grounding', problems.length === 0);
    failures.push(...problems);
  }
  return { failures, trials };
}

/**
 * A turn's expectation, or with `one_of` the first alternative the turn meets completely. When it
 * meets none, the first alternative's failures and trials stand, so a failure is always reported
 * (and counted) against one definite expectation.
 */
export function scoreTurnExpectation(
  e: TurnExpect,
  t: ObservedTurn,
  now: string,
  isMutating: (tool: string) => boolean = (x) => MUTATING_TOOLS.has(x),
): ExpectationScore {
  if (!e.one_of) return scoreExpectation(e, t, now, isMutating);
  const scores = e.one_of.map((alt) => scoreExpectation(alt, t, now, isMutating));
  const met = scores.find((s) => s.failures.length === 0);
  if (met) return met;
  const first = scores[0]!;
  const label = `one_of: none of ${scores.length} alternatives met; the first`;
  return { trials: first.trials, failures: first.failures.map((f) => `${label}: ${f}`) };
}

/** Score runs against their cases: per-case pass/fail with reasons, and the metrics. */
export function scoreRuns(
  cases: readonly EvalCase[],
  runs: readonly CaseRun[],
  opts: ScoreOptions = {},
): { cases: CaseResult[]; metrics: Metrics } {
  const isMutating = opts.isMutating ?? ((t: string) => MUTATING_TOOLS.has(t));
  const tally = Object.fromEntries(METRIC_NAMES.map((m) => [m, { k: 0, n: 0 }])) as Record<
    MetricName,
    { k: number; n: number }
  >;
  const count = (m: MetricName, ok: boolean) => {
    tally[m].n++;
    if (ok) tally[m].k++;
  };
  const results: CaseResult[] = [];
  const byId = new Map(runs.map((r) => [r.id, r]));

  for (const c of cases) {
    const run = byId.get(c.id);
    const now = run?.now ?? (c as { now?: string }).now ?? TEST_NOW;
    const turnScores: TurnScore[] = [];
    c.turns.forEach((turn, i) => {
      const failures: string[] = [];
      const t: ObservedTurn | undefined = run?.turns[i];
      const e = turn.expect;
      if (!t) {
        failures.push('not run');
        turnScores.push({ turn: i + 1, failures });
        return;
      }
      if (t.error) failures.push(`error: ${t.error}`);
      const decided: ObservedDecision[] = t.decisions ?? (t.decision ? [t.decision] : []);
      for (const call of [...t.calls, ...decided.flatMap((d) => d.calls)]) {
        count('argument_validity', call.valid);
        if (!call.valid) failures.push(`invalid arguments for ${call.name}: ${(call.issues ?? []).join('; ')}`);
      }
      const scored = scoreTurnExpectation(e, t, now, isMutating);
      for (const [m, ok] of scored.trials) count(m, ok);
      failures.push(...scored.failures);

      const explicit = decided.filter((d) => !d.implicit);
      decisionsOf(turn).forEach((d, j) => {
        const problems = decisionProblems(d, explicit[j]);
        count('decision_truthfulness', problems.length === 0);
        failures.push(...problems.map((p) => `after ${d.decision}${d.tool ? ` of ${d.tool}` : ''}: ${p}`));
      });
      for (const d of decided.filter((x) => x.implicit && x.error))
        failures.push(`approving for the end state: ${d.error}`);
      if (e.rows || e.no_rows)
        failures.push(...rowProblems(resolveDates({ rows: e.rows, no_rows: e.no_rows }, now), t.rows));
      turnScores.push({ turn: i + 1, failures });
    });
    const failures = turnScores.flatMap((s) =>
      s.failures.map((f) => (c.turns.length > 1 ? `turn ${s.turn}: ${f}` : f)),
    );
    const ok = failures.length === 0;
    count('task_completion', ok);
    results.push({ id: c.id, kind: c.kind, customer: c.customer, ok, failures, turns: turnScores, ms: run?.ms ?? 0 });
  }
  const metrics = Object.fromEntries(METRIC_NAMES.map((m) => [m, metric(m, tally[m].k, tally[m].n)])) as Metrics;
  return { cases: results, metrics };
}
