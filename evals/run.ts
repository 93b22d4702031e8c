import { randomBytes } from 'node:crypto';
import { AIMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ManualClock } from '../core/clock.js';
import type { GeminiRequestBody } from '../agent/model/gemini.js';
import type { TestDatabase } from '../core/testing/test-database.js';
import { TEST_NOW, TEST_TZ } from '../core/testing/test-database.js';
import type { Approval } from '../agent/approvals/ledger.js';
import { OfflinePlanner } from '../agent/model/offline/index.js';
import type { AgentStateType } from '../agent/state.js';
import type { TurnResult } from '../agent/service.js';
import { startAgentOn, type Harness } from '../agent/testing/harness.js';
import type { ToolCallOutcome } from '../agent/tool-client.js';
import { WITHDRAW_TOOL, WithdrawArgsSchema } from '../agent/plan-context.js';
import { MUTATING_TOOLS, parseToolArgs } from '../schema/tools/catalog.js';
import type { CallMeta } from '../schema/tools/call-meta.js';
import type { Queryable } from '../core/pg-pool.js';
import { ensureSlots } from '../schema/seed/index.js';
import { decisionsOf, END_STATE_TABLES, type Decide, type EvalCase, type EndStateTable } from './case-schema.js';
import { expandCases, type ClockedCase } from './case-clock.js';
import { createEvalDatabase, openEvalServer } from './database.js';
import { scoreRuns, type CaseResult, type Metrics } from './metrics.js';
import { countPlanCalls, type PromptTokenSummary } from './prompt-tokens.js';

/** A tool call the model made (proposed a write, called a read, or withdrew a request). */
export interface ObservedCall {
  name: string;
  args: Record<string, unknown>;
  mutating: boolean;
  /** The arguments pass the tool's own schema (`parseToolArgs`; withdraw_request: its schema). */
  valid: boolean;
  issues?: string[];
}

/** What the tool server was asked during the turn (reads, the retrieve step's search, rehearsals, executions). */
export interface ToolLogEntry {
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
  error?: string;
  dry_run?: boolean;
  approval_id?: string;
  /** The retrieve step's search (not a model decision). */
  auto?: boolean;
}

export interface ObservedApproval {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  status: string;
}

export interface ObservedDecision {
  decision: 'approve' | 'reject';
  /** Which tool's proposals it decided (undefined: all of the turn's). */
  tool?: string;
  /** An approval the runner made so an end-state check sees the writes (the turn had no `decide`). */
  implicit?: boolean;
  approvals: ObservedApproval[];
  reply: string;
  calls: ObservedCall[];
  error?: string;
  /**
   * The case says to decide, but the turn proposed nothing to decide: the agent's failure (scored
   * like any other), not the harness's, so it is not an `error`.
   */
  nothingProposed?: string;
}

export interface ObservedTurn {
  message: string;
  status?: TurnResult['status'];
  reply: string;
  /** The model's tool calls in this turn, every plan step, in order. */
  calls: ObservedCall[];
  /** Approvals recorded (new) or changed by this turn, with their status after it. */
  proposals: ObservedApproval[];
  changed: ObservedApproval[];
  retrieved: string[];
  toolLog: ToolLogEntry[];
  /** The first explicit decision (kept for readers of one-decision turns). */
  decision?: ObservedDecision;
  /** Every decision of the turn, in order, implicit approvals included. */
  decisions?: ObservedDecision[];
  /** The end-state tables after the turn's decisions, when the turn checks rows. */
  rows?: Partial<Record<EndStateTable, Record<string, unknown>[]>>;
  error?: string;
  ms: number;
}

export interface CaseRun {
  id: string;
  threadId: string;
  /** The case's clock. */
  now?: string;
  turns: ObservedTurn[];
  /** Every approval of the thread at the end, with its final status. */
  ledger: ObservedApproval[];
  ms: number;
}

export interface EvalReport {
  model: string;
  now: string;
  timeZone: string;
  startedAt: string;
  ms: number;
  metrics: Metrics;
  cases: CaseResult[];
  runs: CaseRun[];
  /** Which case set ran (golden, holdout, or a file's name). */
  set?: string;
  /** Prompt tokens of every plan call of the run, on the request the Gemini path would send. */
  promptTokens?: PromptTokenSummary;
}

export interface RunEvalOptions {
  cases: EvalCase[];
  /** Default: the offline planner. */
  model?: BaseChatModel;
  modelName?: string;
  /** Default: a ManualClock at TEST_NOW (Monday 2026-12-07 09:00 in New York). */
  clock?: ManualClock;
  /** A freshly seeded database to run on (left in place); otherwise one is created and dropped. */
  database?: TestDatabase;
  /** The Postgres server to create that database on; default: a throw-away embedded server. */
  adminUrl?: string;
  /** Who approves in decision flows. */
  approver?: string;
  /** The Gemini model whose request is counted per plan call (default: the configured default). */
  geminiModel?: string;
  /** Sees each plan call's Gemini request as it is counted. */
  onPlanRequest?: (body: GeminiRequestBody) => void;
  onCase?: (result: CaseResult, run: CaseRun, index: number, total: number) => void;
}

const approvalView = (a: Approval): ObservedApproval => ({ id: a.id, tool: a.tool, args: a.args, status: a.status });

export function observeCall(name: string, args: Record<string, unknown>): ObservedCall {
  if (name === WITHDRAW_TOOL) {
    const r = WithdrawArgsSchema.safeParse(args);
    return {
      name,
      args,
      mutating: false,
      valid: r.success,
      ...(r.success ? {} : { issues: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }),
    };
  }
  const r = parseToolArgs(name, args);
  return {
    name,
    args,
    mutating: MUTATING_TOOLS.has(name),
    valid: r.ok,
    ...(r.ok ? {} : { issues: r.issues.map((i) => `${i.path}: ${i.message}`) }),
  };
}

/**
 * Run the golden cases through the real agent: one fresh seeded database and one harness for the
 * whole run (the real MCP tool server in-process, the LangGraph agent, the ledger), a fixed clock,
 * cases one after another, each in its own thread. Then score them.
 */
export async function runEval(opts: RunEvalOptions): Promise<EvalReport> {
  const started = Date.now();
  const clock = opts.clock ?? new ManualClock(TEST_NOW);
  const now = clock.now().toISOString();
  const model = opts.model ?? new OfflinePlanner();
  const cleanup: (() => Promise<void>)[] = [];
  let harness: Harness | undefined;
  const planCalls = countPlanCalls(model, { geminiModel: opts.geminiModel, onRequest: opts.onPlanRequest });
  cleanup.unshift(async () => planCalls.stop());
  try {
    let db = opts.database;
    if (!db) {
      let adminUrl = opts.adminUrl;
      if (!adminUrl) {
        const server = await openEvalServer();
        cleanup.unshift(server.stop);
        adminUrl = server.adminUrl;
      }
      db = await createEvalDatabase(adminUrl, { clock, timeZone: TEST_TZ });
      cleanup.unshift(db.drop);
    }
    harness = await startAgentOn(db, clock, { model });
    const h = harness;
    const toolLog = recordToolCalls(h);

    const runId = randomBytes(3).toString('hex');
    const base = clock.now().toISOString();
    const expanded = expandCases(opts.cases, base, TEST_TZ);
    // Cases on their own clock run last: moving the clock tops up slots, which the others never see then.
    const order = [...expanded.filter((c) => c.now === base), ...expanded.filter((c) => c.now !== base)];
    const runs: CaseRun[] = [];
    for (const [i, c] of order.entries()) {
      if (clock.now().toISOString() !== c.now) {
        clock.set(c.now);
        await ensureSlots(db.pool, clock.now(), TEST_TZ);
      }
      const run = await runCase(h, c, `eval:${runId}:${c.id}`, toolLog, opts.approver ?? 'eval:manager', db.pool);
      runs.push(run);
      opts.onCase?.(scoreRuns([c], [run]).cases[0]!, run, i, order.length);
    }
    clock.set(base);
    const scored = scoreRuns(expanded, runs);
    return {
      model: opts.modelName ?? (model as { _llmType?: () => string })._llmType?.() ?? 'unknown',
      now,
      timeZone: TEST_TZ,
      startedAt: new Date(started).toISOString(),
      ms: Date.now() - started,
      metrics: scored.metrics,
      cases: scored.cases,
      runs,
      promptTokens: planCalls.summary(),
    };
  } finally {
    await harness?.close().catch(() => undefined);
    for (const fn of cleanup) await fn().catch(() => undefined);
  }
}

/** Wrap the agent's tool client: everything the tool server is asked, by thread. */
function recordToolCalls(h: Harness): Map<string, ToolLogEntry[]> {
  const log = new Map<string, ToolLogEntry[]>();
  const tools = h.agent.tools;
  const call = tools.call.bind(tools);
  tools.call = async (name: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> => {
    const out = await call(name, args, meta);
    const thread = meta.thread_id ?? '';
    const entries = log.get(thread) ?? [];
    entries.push({
      name,
      args,
      ok: out.ok,
      ...(out.ok ? {} : { error: `${out.error.code}: ${out.error.message}` }),
      ...(meta.dry_run ? { dry_run: true } : {}),
      ...(meta.approval_id ? { approval_id: meta.approval_id } : {}),
    });
    log.set(thread, entries);
    return out;
  };
  return log;
}

async function messagesOf(h: Harness, threadId: string) {
  const state = await h.agent.graph.getState({ configurable: { thread_id: threadId } });
  return (state.values as Partial<AgentStateType>) ?? {};
}

/** The model's tool calls in messages that were not there before. */
function newCalls(before: Set<string | undefined>, messages: AgentStateType['messages']): ObservedCall[] {
  return messages
    .filter((m) => !before.has(m.id) && AIMessage.isInstance(m))
    .flatMap((m) => (m as AIMessage).tool_calls ?? [])
    .map((c) => observeCall(c.name, (c.args ?? {}) as Record<string, unknown>));
}

async function runCase(
  h: Harness,
  c: ClockedCase,
  threadId: string,
  toolLog: Map<string, ToolLogEntry[]>,
  approver: string,
  pool: Queryable,
): Promise<CaseRun> {
  const started = Date.now();
  const turns: ObservedTurn[] = [];
  const logSince = (from: number) => (toolLog.get(threadId) ?? []).slice(from);
  for (const turn of c.turns) {
    const t0 = Date.now();
    const before = new Set(((await messagesOf(h, threadId)).messages ?? []).map((m) => m.id));
    const logFrom = toolLog.get(threadId)?.length ?? 0;
    const known = new Set((await h.agent.ledger.list({ threadId })).map((a) => a.id));
    const observed: ObservedTurn = {
      message: turn.message,
      reply: '',
      calls: [],
      proposals: [],
      changed: [],
      retrieved: [],
      toolLog: [],
      ms: 0,
    };
    try {
      const r = await h.agent.service.handleMessage({
        threadId,
        customerId: c.customer,
        text: turn.message,
        source: 'eval',
      });
      const values = await messagesOf(h, threadId);
      observed.status = r.status;
      observed.reply = r.reply;
      observed.calls = newCalls(before, values.messages ?? []);
      observed.changed = r.changed.map(approvalView);
      observed.proposals = r.changed.filter((a) => !known.has(a.id)).map(approvalView);
      observed.retrieved = (values.retrieved ?? []).map((a) => a.id);
    } catch (err) {
      observed.error = errorText(err);
    }
    const firstLog = logSince(logFrom);
    const endState = turn.expect.rows !== undefined || turn.expect.no_rows !== undefined;
    const decides = decisionsOf(turn);
    if (!observed.error && (decides.length || endState)) {
      observed.decisions = [];
      const plan: (Decide & { implicit?: boolean })[] = decides.length
        ? decides
        : [{ decision: 'approve', expect: {}, implicit: true }];
      for (const d of plan) {
        const dec = await decideTurn(h, threadId, observed, d, approver);
        if (d.implicit) dec.implicit = true;
        observed.decisions.push(dec);
      }
      observed.decision = observed.decisions.find((d) => !d.implicit);
    }
    if (endState && !observed.error) {
      const tables = new Set([
        ...Object.keys(turn.expect.rows ?? {}),
        ...Object.keys(turn.expect.no_rows ?? {}),
      ]) as Set<EndStateTable>;
      observed.rows = {};
      for (const t of tables) observed.rows[t] = await tableRows(pool, t);
    }
    observed.toolLog = firstLog.map((e) =>
      e.name === 'search_knowledge_base' && isAutoSearch(e, turn.message) ? { ...e, auto: true } : e,
    );
    observed.ms = Date.now() - t0;
    turns.push(observed);
  }
  const ledger = (await h.agent.ledger.list({ threadId })).reverse().map(approvalView);
  return { id: c.id, threadId, now: c.now, turns, ledger, ms: Date.now() - started };
}

/**
 * Decide the turn's pending proposals (those of `d.tool`, or all). An implicit approval (for an
 * end-state check) with nothing pending is not an error: the turn proposed nothing to approve.
 */
async function decideTurn(
  h: Harness,
  threadId: string,
  observed: ObservedTurn,
  d: Decide & { implicit?: boolean },
  approver: string,
): Promise<ObservedDecision> {
  const pending = await Promise.all(observed.proposals.map((p) => h.agent.ledger.get(p.id)));
  const targets = pending.filter(
    (p): p is Approval => p !== undefined && p !== null && p.status === 'pending' && (!d.tool || p.tool === d.tool),
  );
  const decision: ObservedDecision = {
    decision: d.decision,
    ...(d.tool ? { tool: d.tool } : {}),
    approvals: [],
    reply: '',
    calls: [],
  };
  const beforeDecision = new Set(((await messagesOf(h, threadId)).messages ?? []).map((m) => m.id));
  const replies: string[] = [];
  const which = d.tool ? ` for ${d.tool}` : '';
  if (!targets.length && !d.implicit)
    decision.nothingProposed = `nothing to ${d.decision}: no approval${which} was proposed in this turn`;
  try {
    for (const target of targets) {
      const out = await h.agent.service.decide({
        approvalId: target.id,
        approver,
        decision: d.decision,
        ...(d.args ? { args: { ...target.args, ...d.args } } : {}),
        ...(d.reason ? { reason: d.reason } : {}),
      });
      decision.approvals.push(approvalView(out.approval));
      if (out.turn) replies.push(out.turn.reply);
    }
  } catch (err) {
    decision.error = errorText(err);
  }
  decision.reply = replies.join('\n\n');
  decision.calls = newCalls(beforeDecision, (await messagesOf(h, threadId)).messages ?? []);
  return decision;
}

const TABLE_QUERIES: Record<EndStateTable, string> = {
  bookings: 'SELECT * FROM bookings ORDER BY id',
  tickets: 'SELECT * FROM tickets ORDER BY id',
  customers: 'SELECT * FROM customers ORDER BY id',
  email_outbox: 'SELECT * FROM email_outbox ORDER BY id',
};

/** A table's rows as JSON values (timestamps as ISO strings), for partial matching. */
async function tableRows(pool: Queryable, table: EndStateTable): Promise<Record<string, unknown>[]> {
  if (!END_STATE_TABLES.includes(table)) throw new Error(`not an end-state table: ${table}`);
  const res = await pool.query<Record<string, unknown>>(TABLE_QUERIES[table]);
  return res.rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])),
  );
}

/** The retrieve step searches for the customer's message itself, with limit 5. */
const isAutoSearch = (e: ToolLogEntry, message: string) =>
  e.args.limit === 5 && e.args.query === message.trim().slice(0, 500);

function errorText(err: unknown): string {
  if (err instanceof Error)
    return `${(err as { code?: string }).code ? `${(err as { code?: string }).code}: ` : ''}${err.message}`;
  return String(err);
}
