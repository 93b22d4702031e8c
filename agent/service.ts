import { randomUUID } from 'node:crypto';
import { Command } from '@langchain/langgraph';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { approvalIdFor as stableUuidFor } from './approvals/ledger.js';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import type { Approval, Decision, Ledger } from './approvals/ledger.js';
import type { AgentGraph } from './graph.js';
import type { AgentStateType, ResumeValue } from './state.js';
import { LeaseBusyError, ThreadLeases, type LeaseReads } from './thread-lease.js';
import { TURN_CUSTOMER_SQL, type TurnCustomers } from './turn-customer.js';
import { RunAdmission } from './run-admission.js';
import { storableText } from '../core/storable-text.js';
import { threadStatuses, threadStatusesSql } from '../schema/approvals/store.js';
import { grantOutcomeMessage, runGrant } from './approvals/run-grant.js';
import { callMeta } from './deps.js';
import { approvalEventOf, type PlanContext } from './plan-context.js';
import { decisionEventMessage } from './nodes/apply-decision.js';
import type { ToolClient } from './tool-client.js';
import { storedDelivery, type DeliveryPort } from './delivery-port.js';
import { personalMeta, replyOf, type Reply } from './reply.js';
import { rehearseEdit } from './approvals/rehearse-edit.js';
import { measureGraphRun } from '../core/metrics.js';

export const MAX_MESSAGE_CHARS = 4000;

export interface TurnResult {
  threadId: string;
  /** `queued`: the thread was busy; the message is kept and answered right after (through the delivery port). */
  status: 'answered' | 'pending_approval' | 'queued';
  reply: string;
  replies: string[];
  /** The same replies with their privacy mark, as the delivery port gets them. */
  outgoing: Reply[];
  /** Approvals of this thread still waiting for a decision. */
  pending: Approval[];
  /** Approvals whose status changed during this call (new, superseded, withdrawn, decided, done). */
  changed: Approval[];
  /** Transcript rows of the replies (marked delivered once the delivery port has them). */
  replyIds: number[];
  fallback: boolean;
  /** Set by `handleMessage`: false when the delivery port failed (the replies stay in the outbox). */
  delivered?: boolean;
  /** The replies were recorded delivered: the conversation has nowhere to post (`DeliveryPort.storesOnly`). */
  recordedDelivered?: boolean;
}

export class AgentError extends Error {
  constructor(
    readonly code:
      | 'message_too_long'
      | 'empty_message'
      | 'thread_owned_by_other_customer'
      | 'unknown_customer'
      | 'overloaded',
    message: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

type Customer = PlanContext['customer'];

export interface MessageInput {
  threadId: string;
  customerId: string | null;
  text: string;
  source: 'slack' | 'api' | 'eval';
  slack?: { channel: string; threadTs: string; userId: string };
  /** A stable key of this delivery (Slack's event id): a retried delivery is recognised, not answered twice. */
  messageKey?: string;
}

/**
 * The agent as the rest of the product sees it: send a message, decide an approval, sweep.
 * Every graph run holds the thread's lease, so a customer message, a manager's click and the
 * sweeper never run one thread twice at once, on any number of workers.
 */
export class AgentService {
  private readonly leases: ThreadLeases;
  private readonly admission: RunAdmission;
  private readonly port: DeliveryPort;

  constructor(
    private readonly deps: {
      pool: Pool;
      graph: AgentGraph;
      /** Bounds each thread's checkpoint history after a turn (agent/lean-postgres-saver.ts). */
      checkpoints?: {
        prune(threadId: string, keep: number): Promise<number>;
        /** Reads of the thread's newest checkpoint inside `fn` share one statement (the caller holds the lease). */
        sharingReads?<T>(threadId: string, fn: () => Promise<T>): Promise<T>;
        /** `prune` as CTEs over a thread id parameter: then the lease's release prunes, not each turn. */
        pruneSql?(threadParam: string, keep: number): string;
      };
      ledger: Ledger;
      clock: Clock;
      logger: Logger;
      workerId: string;
      callbacks?: RunnableConfig['callbacks'];
      leaseTtlMs?: number;
      /** The tool server: to run an approved write the graph lost track of (see resumeApproval). */
      tools?: ToolClient;
      /** How long a message waits for its busy thread before it is queued. */
      leaseWaitMs?: number;
      /** Graph runs at once on this worker, and how many may wait for one. */
      maxConcurrentRuns?: number;
      maxQueuedRuns?: number;
      /** Where replies and card updates go; without one, replies are delivered by being stored. */
      delivery?: DeliveryPort;
      /** Shared with the graph's plan steps: the customer a message's run read with its lease. */
      turnCustomers?: TurnCustomers;
    },
  ) {
    this.port = deps.delivery ?? storedDelivery;
    this.leases = new ThreadLeases(deps.pool, deps.workerId, deps.leaseTtlMs);
    this.admission = new RunAdmission(deps.maxConcurrentRuns ?? 8, deps.maxQueuedRuns ?? 500);
  }

  /** Runs in flight and waiting on this worker (for health and metrics). */
  get load() {
    return this.admission.stats;
  }

  get ledger(): Ledger {
    return this.deps.ledger;
  }

  private config(threadId: string): RunnableConfig {
    return {
      configurable: { thread_id: threadId },
      recursionLimit: 60,
      callbacks: this.deps.callbacks,
      runName: 'support-agent',
      metadata: { thread_id: threadId },
    };
  }

  async handleMessage(input: MessageInput): Promise<TurnResult> {
    const text = storableText(input.text).trim();
    if (!text) throw new AgentError('empty_message', 'The message is empty.');
    if (text.length > MAX_MESSAGE_CHARS) {
      throw new AgentError(
        'message_too_long',
        `Messages can be at most ${MAX_MESSAGE_CHARS} characters (this one has ${text.length}). Please split it up.`,
      );
    }
    const message = { ...input, text };
    await this.ensureConversation(message);
    const log = this.deps.logger.child({ thread_id: input.threadId });
    let result: TurnResult;
    try {
      result = await this.admit(() =>
        this.leases.with(
          input.threadId,
          (reads) =>
            this.underLease(input.threadId, async () => {
              // Follow-ups queued while the thread was busy go first, in order; so do the ones that
              // arrive while this turn runs (the lease is held until none is left).
              const queued = reads.queued as QueuedRow[];
              await this.runQueued(input.threadId, queued);
              if (queued.length) return this.runMessage(message);
              return this.runMessage(message, statusMap(reads.before), { customer: reads.customer as Customer });
            }),
          this.deps.leaseWaitMs ?? 5_000,
          this.leaseOpts(input.threadId, this.deps.turnCustomers ? { customer: TURN_CUSTOMER_SQL } : {}),
        ),
      );
    } catch (err) {
      if (!(err instanceof LeaseBusyError)) throw err;
      // Another run holds the thread (perhaps a worker that died): keep the message, don't refuse it.
      result = await this.enqueue(message);
      log.info({ message_key: message.messageKey }, 'thread busy: follow-up queued');
    }
    log.info(
      { status: result.status, changed: result.changed.map((a) => `${a.id}:${a.status}`) },
      'handled customer message',
    );
    await this.notifyChanged(result.changed);
    // The queued notice has no transcript row: it is delivered, never redelivered.
    result.delivered = await this.deliverTurn(result);
    return result;
  }

  /**
   * One customer message through the graph. The caller holds the thread's lease; `before` is the
   * thread's approvals as it took the lease, when nothing ran since.
   */
  private async runMessage(
    input: MessageInput,
    snapshot?: Map<string, string>,
    read?: { customer: Customer },
  ): Promise<TurnResult> {
    const { text } = input;
    const log = this.deps.logger.child({ thread_id: input.threadId });
    const messageId = input.messageKey ? stableUuid(`${input.threadId}\u0000${input.messageKey}`) : randomUUID();
    const before = snapshot ?? (await this.snapshot(input.threadId));
    const cfg = this.config(input.threadId);
    const fresh = await this.transcript(input.threadId, 'customer', text, {}, input.messageKey);
    let state = await this.deps.graph.getState(cfg);
    if (state.next.length && !isInterrupted(state)) {
      // A previous run died mid-way (worker crash): finish it before starting a new turn.
      log.warn({ next: state.next }, 'finishing an interrupted run before the new message');
      await this.deps.graph.invoke(null, cfg);
      // That run may have executed a write: the customer read with the lease is stale.
      read = undefined;
      state = await this.deps.graph.getState(cfg);
      if (!fresh) return this.finishRun(input.threadId, before, state.values as AgentStateType);
      // The finished run answered an earlier message: its replies go out through the outbox.
      for (const r of ((state.values as AgentStateType).replies ?? []).map(replyOf))
        await this.transcript(input.threadId, 'agent', r.text, { personal: r.personal });
    }
    const seen = ((state.values as AgentStateType).messages ?? []).some((m) => m.id === messageId);
    if (!fresh && seen) {
      // A repeated delivery of a message this conversation already answered: hand back what was
      // said and not yet delivered, run nothing.
      log.info({ message_key: input.messageKey }, 'repeated delivery of an answered message');
      return this.undeliveredTurn(input.threadId, before);
    }
    const resume: ResumeValue = { kind: 'message', text, id: messageId };
    const run = () =>
      this.run(
        isInterrupted(state)
          ? new Command({ resume })
          : { threadId: input.threadId, customerId: input.customerId, incoming: text, incomingId: messageId },
        cfg,
      );
    const turnCustomers = this.deps.turnCustomers;
    const values = await (read && turnCustomers ? turnCustomers.with(input.threadId, read.customer, run) : run());
    return this.finishRun(input.threadId, before, values);
  }

  /**
   * Run the graph; its output is the thread's state at the end of the run (the newest checkpoint's
   * values), so the caller needs no getState after it. Undefined when the run produced no state.
   */
  private async run(input: Parameters<AgentGraph['invoke']>[0], cfg: RunnableConfig, durability?: 'exit' | 'async') {
    const out = (await this.deps.graph.invoke(input, { ...cfg, ...(durability ? { durability } : {}) })) as
      | Partial<AgentStateType>
      | undefined
      | null;
    return out && Array.isArray(out.messages) ? (out as AgentStateType) : undefined;
  }

  /** Keep a follow-up for later (durably: the customer has been told it is coming). */
  private async enqueue(input: MessageInput): Promise<TurnResult> {
    const key = input.messageKey ?? randomUUID();
    await this.deps.pool.query(
      `INSERT INTO message_queue (thread_id, message_key, input) VALUES ($1, $2, $3)
       ON CONFLICT (thread_id, message_key) DO NOTHING`,
      [input.threadId, key, JSON.stringify({ ...input, messageKey: key })],
    );
    // The holder may have just finished: try once to answer it right away.
    void this.drain(input.threadId);
    const pending = (await this.deps.ledger.list({ threadId: input.threadId, status: 'pending' })).reverse();
    return {
      threadId: input.threadId,
      status: 'queued',
      reply: QUEUED_REPLY,
      replies: [QUEUED_REPLY],
      outgoing: [{ text: QUEUED_REPLY, personal: false }],
      replyIds: [],
      pending,
      changed: [],
      fallback: false,
    };
  }

  /**
   * The lease options of every run: the queued follow-ups and the approvals read as the lease is
   * taken, and the lease kept until the queue is empty (checked by the releasing statement).
   */
  private leaseOpts(threadId: string, more: LeaseReads = {}) {
    return {
      reads: { queued: QUEUED_SQL, before: threadStatusesSql('$1'), ...more },
      hold: {
        sql: QUEUE_WAITING_SQL,
        drain: () => this.underLease(threadId, () => this.runQueued(threadId)),
        alongside: this.deps.checkpoints?.pruneSql?.('$1', CHECKPOINTS_KEPT),
      },
    };
  }

  /** Work on a thread whose lease this worker holds: its checkpoint reads are shared until a write. */
  private underLease<T>(threadId: string, fn: () => Promise<T>): Promise<T> {
    const checkpoints = this.deps.checkpoints;
    return checkpoints?.sharingReads ? checkpoints.sharingReads(threadId, fn) : fn();
  }

  /** Answer the thread's queued follow-ups in order (`rows`: as already read). The caller holds the thread's lease. */
  private async runQueued(threadId: string, rows?: QueuedRow[]): Promise<number> {
    rows ??= (
      await this.deps.pool.query<QueuedRow>(
        `SELECT id, input, attempts FROM message_queue WHERE thread_id = $1 ORDER BY id LIMIT 20`,
        [threadId],
      )
    ).rows;
    for (const row of rows) {
      const log = this.deps.logger.child({ thread_id: threadId, message_key: row.input.messageKey });
      let turn: TurnResult;
      try {
        turn = await this.runMessage(row.input);
      } catch (err) {
        const final = err instanceof AgentError || row.attempts + 1 >= QUEUE_MAX_ATTEMPTS;
        log.error(
          { err, attempt: row.attempts + 1 },
          final ? 'queued follow-up failed for good' : 'queued follow-up failed; will retry',
        );
        if (!final) {
          await this.deps.pool.query(
            `UPDATE message_queue SET attempts = attempts + 1, last_error = $2 WHERE id = $1`,
            [row.id, String(err).slice(0, 500)],
          );
          throw err;
        }
        await this.deps.pool.query(`DELETE FROM message_queue WHERE id = $1`, [row.id]);
        const text = err instanceof AgentError ? `Sorry! ${err.message} I haven't acted on it.` : QUEUE_FAILED_REPLY;
        const id = await this.transcript(
          threadId,
          'agent',
          text,
          { queued_failure: true, personal: false },
          `queue-failure:${row.input.messageKey}`,
        );
        if (id !== undefined) await this.deliver(threadId, [{ text, personal: false }], [id]);
        continue;
      }
      await this.deps.pool.query(`DELETE FROM message_queue WHERE id = $1`, [row.id]);
      log.info({ status: turn.status }, 'queued follow-up answered');
      await this.notifyChanged(turn.changed);
      await this.deliverTurn(turn);
    }
    return rows.length;
  }

  /** Answer a thread's queue if its lease is free now (never waits for it). */
  private async drain(threadId: string): Promise<number> {
    try {
      return await this.admit(() =>
        this.leases.with(
          threadId,
          (r) => this.underLease(threadId, () => this.runQueued(threadId, r.queued as QueuedRow[])),
          0,
          this.leaseOpts(threadId),
        ),
      );
    } catch (err) {
      if (!(err instanceof LeaseBusyError))
        this.deps.logger.warn({ err, thread_id: threadId }, 'could not answer queued follow-ups yet');
      return 0;
    }
  }

  private admit<T>(fn: () => Promise<T>): Promise<T> {
    return this.admission.run(
      () => measureGraphRun(fn),
      () =>
        new AgentError(
          'overloaded',
          'We are handling a lot of messages right now; please send yours again in a minute.',
        ),
    );
  }

  /**
   * A manager's decision: recorded by one conditional UPDATE (one winner), then the thread is
   * resumed right here. If this worker dies after recording, the sweeper resumes it.
   */
  async decide(d: Decision) {
    // An edit is recorded only as rehearsed: a refusal leaves the approval pending and decidable.
    const rehearsed = d.decision === 'approve' ? await this.rehearseEdit(d) : undefined;
    const approval = await this.deps.ledger.decide(rehearsed ? { ...d, args: rehearsed } : d);
    this.deps.logger.info(
      { approval_id: approval.id, thread_id: approval.thread_id, approver: d.approver, decision: d.decision },
      'approval decided',
    );
    await this.notifyChanged([approval]);
    let turn: TurnResult | undefined;
    try {
      turn = await this.resumeApproval(approval.id, { approval });
    } catch (err) {
      // The decision is recorded; the sweeper finishes the work (on this or any other worker).
      this.deps.logger.warn({ err, approval_id: approval.id }, 'resume deferred to the sweeper');
    }
    // The decision is recorded: a failing re-read (database gone this instant) must not turn that
    // into an error the manager would take for "nothing happened". A turn that changed the
    // approval read it already.
    const latest =
      turn?.changed.find((a) => a.id === approval.id) ??
      (await this.deps.ledger.get(approval.id).catch(() => undefined));
    return { approval: latest ?? approval, turn };
  }

  /**
   * Rehearse a manager's edit without deciding (agent/approvals/rehearse-edit.ts): the Slack modal
   * asks before it closes, so a refusal shows on the form. Refusals are LedgerErrors; `decide`
   * runs it again on the arguments it records. Returns the arguments to record, or undefined when
   * there is nothing to rehearse (no edit; unknown, decided or expired: the ledger says which).
   */
  async rehearseEdit(d: Pick<Decision, 'approvalId' | 'args'>): Promise<Record<string, unknown> | undefined> {
    if (d.args === undefined) return undefined;
    const approval = await this.deps.ledger.get(d.approvalId);
    if (!approval || approval.status !== 'pending' || approval.expires_at <= this.deps.clock.now()) return undefined;
    return (await rehearseEdit({ tools: this.deps.tools, logger: this.deps.logger }, approval, d.args)).args;
  }

  /**
   * Bring a decided (or expired) approval into its conversation, once. Safe to call repeatedly.
   *
   * The ledger decides what still has to run, not LangGraph: a run that died after a node's
   * writes were saved but before the next checkpoint can leave `getState().next` empty although
   * the decided approval never ran. So after giving the graph its chance, an approval still
   * approved or executing is run here (the gate executes a grant once, whatever the number of
   * calls), and an outcome the conversation has not seen is put into it, so the customer hears it.
   */
  async resumeApproval(
    approvalId: string,
    opts: {
      waitMs?: number;
      /** The approval as the caller just read it (only its thread is used): saves reading it again. */
      approval?: Approval;
    } = {},
  ): Promise<TurnResult | undefined> {
    const first = opts.approval?.id === approvalId ? opts.approval : await this.deps.ledger.get(approvalId);
    if (!first) return undefined;
    const threadId = first.thread_id;
    const log = this.deps.logger.child({ thread_id: threadId, approval_id: approvalId });
    const result = await this.admit(() =>
      this.leases.with(
        threadId,
        (reads) =>
          this.underLease(threadId, async () => {
            const before = statusMap(reads.before);
            const cfg = this.config(threadId);
            let state = await this.deps.graph.getState(cfg);
            if (state.next.length && !isInterrupted(state)) {
              await this.deps.graph.invoke(null, cfg); // a crashed run (e.g. inside execute) finishes first
              state = await this.deps.graph.getState(cfg);
            }
            const waiting = (state.values as AgentStateType).pending?.some((p) => p.approval_id === approvalId);
            // The newest state, from the last run's output or the last getState.
            let values = state.values as AgentStateType;
            let next: readonly string[] = state.next;
            // Did this call's own run bring the decision into the conversation (and answer it)?
            let resumed = false;
            if (isInterrupted(state) && waiting) {
              const resume: ResumeValue = { kind: 'decision', approvalId };
              // Checkpointed once, when the run ends (or fails): a run that dies before leaves the thread
              // at its interrupt, and the ledger (the sweeper's `undelivered`) resumes it again from there,
              // the gate replaying a write that already ran. The steps between add nothing recovery needs.
              const out = await this.run(new Command({ resume }), cfg, 'exit');
              if (out) {
                values = out;
                next = [];
                resumed = true;
              } else {
                state = await this.deps.graph.getState(cfg);
                values = state.values as AgentStateType;
                next = state.next;
              }
            }
            // This call's run took the decision from the ledger, brought its outcome into the
            // conversation and answered it: nothing is left to check, the event says what the ledger said.
            const told = resumed && waiting && values.replies?.length ? eventFor(values, approvalId) : undefined;
            if (told) return this.finishDecided(threadId, before, values, approvalId, told.status);
            let approval = (await this.deps.ledger.get(approvalId))!;
            let outcome: ReturnType<typeof grantOutcomeMessage> | undefined;
            if (approval.status === 'approved' || approval.status === 'executing') {
              log.warn(
                { status: approval.status, next },
                'decided approval not carried through by the graph; running it from the ledger',
              );
              if (!this.deps.tools) throw new Error('no tool client to run an orphaned approval');
              const out = await runGrant(
                { ledger: this.deps.ledger, tools: this.deps.tools, workerId: this.deps.workerId },
                approval,
                callMeta({ threadId, customerId: approval.customer_id }),
              );
              approval = (await this.deps.ledger.get(approvalId))!;
              outcome = grantOutcomeMessage(approval, out);
            }
            const messages = values.messages ?? [];
            const at = messages.findIndex((m) => approvalEventOf(m)?.approval_id === approvalId);
            const pending = (values.pending ?? []).filter((p) => p.approval_id !== approvalId);
            if (TOLD_STATUSES.has(approval.status) && !approval.outcome_delivered_at) {
              if (at < 0) {
                // The conversation never saw this outcome: record it as the decision node would have,
                // and let the model answer from it.
                const event = outcome ?? decisionEventMessage(approval);
                await this.deps.graph.updateState(
                  cfg,
                  { messages: [event], pending, deciding: null, replies: null, steps: 0 },
                  'apply_decision',
                );
                values = (await this.run(null, cfg)) ?? (await this.current(threadId));
              } else if (
                messages.slice(at + 1).every((m) => m.getType() !== 'human') &&
                // The run just made here answered it: finishRun records that answer below (a crash
                // before it leaves it unrecorded, and the sweeper's call comes here again).
                !(resumed && values.replies?.length) &&
                !(await this.answered(threadId, messages[at]!.id))
              ) {
                // It saw the outcome but died before its answer was recorded: answer now (a plan that
                // already produced the answer only needs its reply made).
                const answeredInWindow = messages.slice(at + 1).some(isFinalAnswer);
                await this.deps.graph.updateState(
                  cfg,
                  { pending, deciding: null, replies: null },
                  answeredInWindow ? 'plan' : 'execute',
                );
                values = (await this.run(null, cfg)) ?? (await this.current(threadId));
              }
            }
            return this.finishDecided(threadId, before, values, approvalId, approval.status);
          }),
        opts.waitMs ?? 30_000,
        this.leaseOpts(threadId),
      ),
    );
    await this.notifyChanged(result.changed);
    await this.deliverTurn(result);
    return result;
  }

  /**
   * Record a decision's run and, for an outcome the customer must hear, that it has been told.
   * Replies are keyed by the message they answer, so what an earlier call already recorded is not
   * recorded twice. The turn shows the approval as marked.
   */
  private async finishDecided(
    threadId: string,
    before: Map<string, string>,
    values: AgentStateType | undefined,
    approvalId: string,
    status: string,
  ): Promise<TurnResult> {
    return this.finishRun(threadId, before, values, TOLD_STATUSES.has(status) ? approvalId : undefined);
  }

  /** Expire what nobody decided, and finish decided work whose worker died. */
  async sweep(opts: { graceMs?: number } = {}): Promise<{ expired: number; resumed: number; errors: number }> {
    const expired = await this.deps.ledger.expireDue();
    await this.notifyChanged(expired);
    // No grace period here: the thread lease tells whether a live worker is still on it (then it
    // is skipped, never waited for), and a business clock that stands still (FIXED_NOW) must not
    // keep an approved write from ever being picked up.
    const undelivered = await this.deps.ledger.undelivered(0);
    const ids = new Set([...expired.map((a) => a.id), ...undelivered.map((a) => a.id)]);
    let resumed = 0;
    let errors = 0;
    for (const id of ids) {
      try {
        await this.resumeApproval(id, { waitMs: 0 });
        resumed++;
      } catch (err) {
        if (err instanceof LeaseBusyError) continue; // its worker is on it right now
        errors++;
        this.deps.logger.error({ err, approval_id: id }, 'sweeper could not resume approval');
      }
    }
    // Follow-ups queued behind a lease that has since been released or run out (a dead worker's).
    const queuedThreads = (
      await this.deps.pool.query<{ thread_id: string }>(`SELECT DISTINCT thread_id FROM message_queue LIMIT 50`)
    ).rows;
    for (const { thread_id } of queuedThreads) resumed += await this.drain(thread_id);
    const redelivered = await this.redeliver(opts.graceMs ?? 30_000);
    if (this.port.catchUp) {
      await this.port.catchUp().catch((err) => {
        errors++;
        this.deps.logger.error({ err }, 'delivery port catch-up failed');
      });
    }
    if (ids.size || redelivered)
      this.deps.logger.info({ expired: expired.length, resumed, redelivered, errors }, 'sweep');
    return { expired: expired.length, resumed, errors };
  }

  startSweeper(intervalMs: number): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.sweep()
        .catch((err) => this.deps.logger.error({ err }, 'sweep failed'))
        .finally(() => (running = false));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  async getThread(threadId: string) {
    const conversation = (await this.deps.pool.query(`SELECT * FROM conversations WHERE thread_id = $1`, [threadId]))
      .rows[0];
    if (!conversation) return undefined;
    const messages = (
      await this.deps.pool.query(
        `SELECT role, text, meta, at FROM conversation_messages WHERE thread_id = $1 ORDER BY id`,
        [threadId],
      )
    ).rows;
    return {
      conversation,
      messages,
      approvals: await this.deps.ledger.list({ threadId }),
      audit: await this.deps.ledger.auditTrail({ threadId }),
    };
  }

  private async ensureConversation(input: MessageInput): Promise<void> {
    // One statement: the customer's existence is checked by the INSERT itself (no row, no
    // conversation), and `known` tells an unknown customer from a thread owned by another one.
    const r = await this.deps.pool.query<{ customer_id: string | null; known: boolean }>(
      `WITH known AS (SELECT $2::text IS NULL OR EXISTS (SELECT 1 FROM customers WHERE id = $2) AS known),
       upsert AS (
         INSERT INTO conversations
           (thread_id, customer_id, source, slack_channel, slack_thread_ts, slack_user_id, created_at, updated_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $7 FROM known WHERE known.known
         ON CONFLICT (thread_id) DO UPDATE SET updated_at = EXCLUDED.updated_at
         RETURNING customer_id
       )
       SELECT upsert.customer_id, known.known FROM known LEFT JOIN upsert ON true`,
      [
        input.threadId,
        input.customerId,
        input.source,
        input.slack?.channel ?? null,
        input.slack?.threadTs ?? null,
        input.slack?.userId ?? null,
        this.deps.clock.now(),
      ],
    );
    if (!r.rows[0]?.known) throw new AgentError('unknown_customer', `No customer ${input.customerId}.`);
    if ((r.rows[0]?.customer_id ?? null) !== input.customerId) {
      throw new AgentError(
        'thread_owned_by_other_customer',
        'This conversation belongs to another customer; please start a new one.',
      );
    }
  }

  /** Append to the transcript; false when a row with this key already exists (a repeated delivery). */
  private async transcript(
    threadId: string,
    role: 'customer' | 'agent' | 'event',
    text: string,
    meta: object = {},
    key?: string,
  ): Promise<number | undefined> {
    const r = await this.deps.pool.query<{ id: number }>(
      `INSERT INTO conversation_messages (thread_id, role, text, meta, at, message_key) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (thread_id, message_key) WHERE message_key IS NOT NULL DO NOTHING RETURNING id`,
      [threadId, role, text, JSON.stringify(meta), this.deps.clock.now(), key ?? null],
    );
    return r.rows[0]?.id;
  }

  /** The customer has these replies (posted in Slack, or returned in an HTTP response). */
  async markDelivered(replyIds: number[]): Promise<void> {
    if (!replyIds.length) return;
    await this.deps.pool.query(
      `UPDATE conversation_messages SET delivered_at = now() WHERE id = ANY($1::bigint[]) AND delivered_at IS NULL`,
      [replyIds],
    );
  }

  /** A turn's replies to the conversation; those recorded delivered are there already. */
  private async deliverTurn(turn: TurnResult): Promise<boolean> {
    if (turn.recordedDelivered) return true;
    return this.deliver(turn.threadId, turn.outgoing, turn.replyIds);
  }

  /** Deliver replies through the port; false when it failed (the sweeper redelivers what has a row). */
  private async deliver(threadId: string, replies: Reply[], replyIds: number[]): Promise<boolean> {
    if (!replies.length) return true;
    try {
      await this.port.deliver(threadId, replies);
      await this.markDelivered(replyIds);
      return true;
    } catch (err) {
      this.deps.logger.warn({ err, thread_id: threadId }, 'reply delivery failed; the sweeper will retry');
      return false;
    }
  }

  /** Replies that never reached the customer (a worker died, Slack was down): try again. */
  private async redeliver(graceMs: number): Promise<number> {
    const rows = (
      await this.deps.pool.query<{ id: number; thread_id: string; text: string; meta: unknown }>(
        `SELECT id, thread_id, text, meta FROM conversation_messages
         WHERE role = 'agent' AND delivered_at IS NULL AND created_at < now() - make_interval(secs => $1::float8 / 1000)
         ORDER BY id LIMIT 100`,
        [graceMs],
      )
    ).rows;
    const byThread = new Map<string, { ids: number[]; replies: Reply[] }>();
    for (const r of rows) {
      const t = byThread.get(r.thread_id) ?? { ids: [], replies: [] };
      t.ids.push(r.id);
      t.replies.push({ text: r.text, personal: personalMeta(r.meta) });
      byThread.set(r.thread_id, t);
    }
    for (const [threadId, t] of byThread) await this.deliver(threadId, t.replies, t.ids);
    return rows.length;
  }

  private async undeliveredTurn(threadId: string, before: Map<string, string>): Promise<TurnResult> {
    const rows = (
      await this.deps.pool.query<{ id: number; text: string; meta: unknown }>(
        `SELECT id, text, meta FROM conversation_messages
          WHERE thread_id = $1 AND role = 'agent' AND delivered_at IS NULL ORDER BY id`,
        [threadId],
      )
    ).rows;
    return this.turnOf(
      threadId,
      before,
      rows.map((r) => ({ text: r.text, personal: personalMeta(r.meta) })),
      rows.map((r) => r.id),
      false,
    );
  }

  /** A turn's result: its replies, and where the thread's approvals stand against `before`. */
  private async turnOf(
    threadId: string,
    before: Map<string, string>,
    replies: Reply[],
    replyIds: number[],
    fallback: boolean,
    /** The thread's approvals as just read, if they were. */
    approvals?: Approval[],
  ): Promise<TurnResult> {
    const all = approvals ?? (await this.deps.ledger.list({ threadId }));
    const pending = all.filter((a) => a.status === 'pending').reverse();
    return {
      threadId,
      status: pending.length ? 'pending_approval' : 'answered',
      reply: replies.map((r) => r.text).join('\n\n'),
      replies: replies.map((r) => r.text),
      outgoing: replies,
      replyIds,
      pending,
      changed: all.filter((a) => before.get(a.id) !== a.status),
      fallback,
    };
  }

  /** Has a reply to this message (a customer message or an approval update) been recorded? */
  private async answered(threadId: string, messageId: string | undefined): Promise<boolean> {
    if (!messageId) return false;
    const r = await this.deps.pool.query(
      `SELECT 1 FROM conversation_messages WHERE thread_id = $1 AND message_key = $2`,
      [threadId, `reply:${messageId}:0`],
    );
    return (r.rowCount ?? 0) > 0;
  }

  private async snapshot(threadId: string): Promise<Map<string, string>> {
    const rows = await threadStatuses(this.deps.pool, threadId);
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  private async current(threadId: string): Promise<AgentStateType> {
    return (await this.deps.graph.getState(this.config(threadId))).values as AgentStateType;
  }

  /**
   * Record the run's replies; `values` is the thread's state after the run. The caller holds the lease.
   * `toldId`: an approval whose outcome these replies tell, marked delivered with them.
   */
  private async finishRun(
    threadId: string,
    before: Map<string, string>,
    values?: AgentStateType,
    toldId?: string,
  ): Promise<TurnResult> {
    values ??= await this.current(threadId);
    await this.prune(threadId);
    const replies = (values.replies ?? []).map(replyOf);
    const lastAi = [...(values.messages ?? [])].reverse().find((m) => m.getType() === 'ai');
    const fallback = (lastAi?.response_metadata as Record<string, unknown> | undefined)?.fallback === true;
    // The run's replies answer its newest input (the customer's message or an approval update):
    // keyed by that message's id, a reply already recorded (an earlier call, a crash after it) is
    // neither recorded nor delivered again.
    const trigger = [...(values.messages ?? [])].reverse().find((m) => m.getType() === 'human')?.id;
    if (!replies.length) return this.markTold(await this.turnOf(threadId, before, [], [], fallback), toldId);
    const keys = replies.map((_, i) => (trigger ? `reply:${trigger}:${i}` : null));
    // The privacy mark is kept with the row, so a redelivery sends it where the first try would have.
    const metas = replies.map((r) =>
      JSON.stringify({ ...(fallback ? { model: 'offline-planner', fallback: true } : {}), personal: r.personal }),
    );
    // Stored is delivered where there is nowhere to post: no mark after it, no commit of its own.
    const storesOnly = this.port.storesOnly?.(threadId) ?? false;
    // The replies and the thread's approvals after the run, in one statement.
    const { approvals, rows } = await this.deps.ledger.listThreadWith<{ id: number; message_key: string | null }>(
      threadId,
      {
        sql: `INSERT INTO conversation_messages (thread_id, role, text, meta, at, message_key, delivered_at)
              SELECT $1, 'agent', r.text, r.meta, $2, r.key, CASE WHEN $6::boolean THEN now() END
              FROM unnest($3::text[], $4::jsonb[], $5::text[]) WITH ORDINALITY AS r(text, meta, key, n) ORDER BY r.n
              ON CONFLICT (thread_id, message_key) WHERE message_key IS NOT NULL DO NOTHING
              RETURNING id, message_key`,
        params: [this.deps.clock.now(), replies.map((r) => r.text), metas, keys, storesOnly],
      },
      // The mark commits with the reply that tells the outcome: no commit of its own, and no
      // moment where one is recorded without the other.
      toldId ? [toldId] : [],
    );
    // Keyed rows are matched by key; unkeyed ones never conflict, and their ids follow the replies' order.
    const byKey = new Map(rows.map((r) => [r.message_key, r.id]));
    const unkeyed = rows.map((r) => r.id).sort((a, b) => a - b);
    const ids = keys.map((k, i) => (k ? byKey.get(k) : unkeyed[i]));
    const replyIds = ids.filter((id): id is number => id !== undefined);
    const fresh = replies.filter((_, i) => ids[i] !== undefined);
    return {
      ...(await this.turnOf(threadId, before, fresh, replyIds, fallback, approvals)),
      recordedDelivered: storesOnly,
    };
  }

  /** A turn without replies whose outcome `toldId` the conversation has all the same: marked on its own. */
  private async markTold(turn: TurnResult, toldId?: string): Promise<TurnResult> {
    if (!toldId) return turn;
    const marked = new Map((await this.deps.ledger.markOutcomeDelivered([toldId])).map((a) => [a.id, a]));
    const latest = (a: Approval) => marked.get(a.id) ?? a;
    return { ...turn, changed: turn.changed.map(latest), pending: turn.pending.map(latest) };
  }

  /**
   * Bound the thread's checkpoint history: only the newest checkpoint is ever resumed from (a
   * pending interrupt's included), a few more are kept as margin. A failure costs only bytes.
   */
  private async prune(threadId: string): Promise<void> {
    // Pruned by the statement that releases the lease instead (see leaseOpts).
    if (!this.deps.checkpoints || this.deps.checkpoints.pruneSql) return;
    try {
      await this.deps.checkpoints.prune(threadId, CHECKPOINTS_KEPT);
    } catch (err) {
      this.deps.logger.warn({ err, thread_id: threadId }, 'could not prune old checkpoints');
    }
  }

  private async notifyChanged(approvals: Approval[]) {
    if (!approvals.length) return;
    try {
      await this.port.approvalsChanged(approvals);
    } catch (err) {
      this.deps.logger.error({ err }, 'approval card update failed');
    }
  }
}

const stableUuid = (key: string) => stableUuidFor(key, 'message');

interface QueuedRow {
  id: number;
  input: MessageInput;
  attempts: number;
}
/** A thread's queued follow-ups, oldest first, as one JSON value (read with the lease). */
const QUEUED_SQL = `(SELECT coalesce(json_agg(q ORDER BY q.id), '[]'::json)
  FROM (SELECT id, input, attempts FROM message_queue WHERE thread_id = $1 ORDER BY id LIMIT 20) q)`;
const QUEUE_WAITING_SQL = `EXISTS (SELECT 1 FROM message_queue WHERE thread_id = $1)`;
/** The outcome event of an approval in the thread's window, if there is one. */
const eventFor = (values: AgentStateType, approvalId: string) =>
  (values.messages ?? []).map(approvalEventOf).find((e) => e?.approval_id === approvalId);
const statusMap = (rows: unknown) => new Map((rows as { id: string; status: string }[]).map((r) => [r.id, r.status]));

/** Outcomes the customer must hear about (superseded and withdrawn ones they caused themselves). */
const TOLD_STATUSES = new Set(['executed', 'failed', 'rejected', 'expired']);

const QUEUE_MAX_ATTEMPTS = 3;
/** Checkpoints kept per thread after a turn (the newest one is all LangGraph resumes from). */
export const CHECKPOINTS_KEPT = 3;
export const QUEUED_REPLY =
  "I'm still finishing your previous message in this thread; I'll answer this one right after.";
const QUEUE_FAILED_REPLY =
  'Sorry, something went wrong on our side while I was handling one of your messages, and nothing was changed. ' +
  'Please send it again.';

const isFinalAnswer = (m: BaseMessage) => AIMessage.isInstance(m) && !m.tool_calls?.length;

const isInterrupted = (state: { tasks: readonly { interrupts?: readonly unknown[] }[] }) =>
  state.tasks.some((t) => (t.interrupts?.length ?? 0) > 0);
