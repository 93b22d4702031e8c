import { randomUUID } from 'node:crypto';
import { Command } from '@langchain/langgraph';
import { approvalIdFor as stableUuidFor } from './approvals/ledger.js';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/db.js';
import type { Logger } from '../core/logger.js';
import type { Approval, Ledger } from './approvals/ledger.js';
import type { AgentGraph } from './graph.js';
import type { AgentStateType, ResumeValue } from './state.js';
import { ThreadLeases } from './thread-lease.js';

export const MAX_MESSAGE_CHARS = 4000;

export interface TurnResult {
  threadId: string;
  status: 'answered' | 'pending_approval';
  reply: string;
  replies: string[];
  /** Approvals of this thread still waiting for a decision. */
  pending: Approval[];
  /** Approvals whose status changed during this call (new, superseded, withdrawn, decided, done). */
  changed: Approval[];
  /** Transcript rows of the replies: pass them to `markDelivered` once the customer has them. */
  replyIds: number[];
  fallback: boolean;
}

export interface AgentHooks {
  /** Cards to post or update. */
  onApprovalsChanged?(approvals: Approval[]): Promise<void>;
  /** Replies produced without a customer message (a decision, an expiry, a redelivery): deliver them to the conversation. */
  onReplies?(threadId: string, replies: string[]): Promise<void>;
  /** Called on every sweep (the bot finishes incoming messages whose worker died). */
  onSweep?(): Promise<void>;
}

export class AgentError extends Error {
  constructor(
    readonly code: 'message_too_long' | 'empty_message' | 'thread_owned_by_other_customer' | 'unknown_customer',
    message: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

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
  hooks: AgentHooks = {};

  constructor(
    private readonly deps: {
      pool: Pool;
      graph: AgentGraph;
      ledger: Ledger;
      clock: Clock;
      logger: Logger;
      workerId: string;
      callbacks?: RunnableConfig['callbacks'];
      leaseTtlMs?: number;
    },
  ) {
    this.leases = new ThreadLeases(deps.pool, deps.workerId, deps.leaseTtlMs);
  }

  get ledger(): Ledger {
    return this.deps.ledger;
  }

  private config(threadId: string): RunnableConfig {
    return { configurable: { thread_id: threadId }, recursionLimit: 60, callbacks: this.deps.callbacks, runName: 'support-agent', metadata: { thread_id: threadId } };
  }

  async handleMessage(input: MessageInput): Promise<TurnResult> {
    const text = input.text.trim();
    if (!text) throw new AgentError('empty_message', 'The message is empty.');
    if (text.length > MAX_MESSAGE_CHARS) {
      throw new AgentError('message_too_long', `Messages can be at most ${MAX_MESSAGE_CHARS} characters (this one has ${text.length}). Please split it up.`);
    }
    await this.ensureConversation(input);
    const log = this.deps.logger.child({ thread_id: input.threadId });
    const messageId = input.messageKey ? stableUuid(`${input.threadId}\u0000${input.messageKey}`) : randomUUID();
    const result = await this.leases.with(input.threadId, async () => {
      const before = await this.snapshot(input.threadId);
      const cfg = this.config(input.threadId);
      const fresh = await this.transcript(input.threadId, 'customer', text, {}, input.messageKey);
      let state = await this.deps.graph.getState(cfg);
      if (state.next.length && !isInterrupted(state)) {
        // A previous run died mid-way (worker crash): finish it before starting a new turn.
        log.warn({ next: state.next }, 'finishing an interrupted run before the new message');
        await this.deps.graph.invoke(null, cfg);
        state = await this.deps.graph.getState(cfg);
        if (!fresh) return this.finishRun(input.threadId, before);
        // The finished run answered an earlier message: its replies go out through the outbox.
        for (const r of (state.values as AgentStateType).replies ?? []) await this.transcript(input.threadId, 'agent', r);
      }
      const seen = ((state.values as AgentStateType).messages ?? []).some((m) => m.id === messageId);
      if (!fresh && seen) {
        // A repeated delivery of a message this conversation already answered: hand back what was
        // said and not yet delivered, run nothing.
        log.info({ message_key: input.messageKey }, 'repeated delivery of an answered message');
        return this.undeliveredTurn(input.threadId, before);
      }
      const resume: ResumeValue = { kind: 'message', text, id: messageId };
      await this.deps.graph.invoke(
        isInterrupted(state)
          ? new Command({ resume })
          : { threadId: input.threadId, customerId: input.customerId, incoming: text, incomingId: messageId },
        cfg,
      );
      return this.finishRun(input.threadId, before);
    });
    log.info({ status: result.status, changed: result.changed.map((a) => `${a.id}:${a.status}`) }, 'handled customer message');
    await this.notifyChanged(result.changed);
    return result;
  }

  /**
   * A manager's decision: recorded by one conditional UPDATE (one winner), then the thread is
   * resumed right here. If this worker dies after recording, the sweeper resumes it.
   */
  async decide(d: { approvalId: string; approver: string; decision: 'approve' | 'reject'; args?: unknown; reason?: string }) {
    const approval = await this.deps.ledger.decide(d);
    this.deps.logger.info({ approval_id: approval.id, thread_id: approval.thread_id, approver: d.approver, decision: d.decision }, 'approval decided');
    await this.notifyChanged([approval]);
    let turn: TurnResult | undefined;
    try {
      turn = await this.resumeApproval(approval.id);
    } catch (err) {
      // The decision is recorded; the sweeper finishes the work (on this or any other worker).
      this.deps.logger.warn({ err, approval_id: approval.id }, 'resume deferred to the sweeper');
    }
    return { approval: (await this.deps.ledger.get(approval.id))!, turn };
  }

  /** Bring a decided (or expired) approval into its conversation, once. Safe to call repeatedly. */
  async resumeApproval(approvalId: string): Promise<TurnResult | undefined> {
    const approval = await this.deps.ledger.get(approvalId);
    if (!approval) return undefined;
    const threadId = approval.thread_id;
    const result = await this.leases.with(threadId, async () => {
      const before = await this.snapshot(threadId);
      const cfg = this.config(threadId);
      let state = await this.deps.graph.getState(cfg);
      if (state.next.length && !isInterrupted(state)) {
        await this.deps.graph.invoke(null, cfg); // a crashed run (e.g. inside execute) finishes first
        state = await this.deps.graph.getState(cfg);
      }
      const waiting = (state.values as AgentStateType).pending?.some((p) => p.approval_id === approvalId);
      if (isInterrupted(state) && waiting) {
        const resume: ResumeValue = { kind: 'decision', approvalId };
        await this.deps.graph.invoke(new Command({ resume }), cfg);
      }
      const turn = await this.finishRun(threadId, before);
      await this.deps.ledger.markOutcomeDelivered([approvalId]);
      return turn;
    });
    await this.notifyChanged(result.changed);
    await this.deliver(threadId, result.replies, result.replyIds);
    return result;
  }

  /** Expire what nobody decided, and finish decided work whose worker died. */
  async sweep(opts: { graceMs?: number } = {}): Promise<{ expired: number; resumed: number; errors: number }> {
    const expired = await this.deps.ledger.expireDue();
    await this.notifyChanged(expired);
    const undelivered = await this.deps.ledger.undelivered(opts.graceMs ?? 30_000);
    const ids = new Set([...expired.map((a) => a.id), ...undelivered.map((a) => a.id)]);
    let resumed = 0;
    let errors = 0;
    for (const id of ids) {
      try {
        await this.resumeApproval(id);
        resumed++;
      } catch (err) {
        errors++;
        this.deps.logger.error({ err, approval_id: id }, 'sweeper could not resume approval');
      }
    }
    const redelivered = await this.redeliver(opts.graceMs ?? 30_000);
    if (this.hooks.onSweep) {
      await this.hooks.onSweep().catch((err) => {
        errors++;
        this.deps.logger.error({ err }, 'sweep hook failed');
      });
    }
    if (ids.size || redelivered) this.deps.logger.info({ expired: expired.length, resumed, redelivered, errors }, 'sweep');
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
    const conversation = (await this.deps.pool.query(`SELECT * FROM conversations WHERE thread_id = $1`, [threadId])).rows[0];
    if (!conversation) return undefined;
    const messages = (
      await this.deps.pool.query(`SELECT role, text, meta, at FROM conversation_messages WHERE thread_id = $1 ORDER BY id`, [threadId])
    ).rows;
    return {
      conversation,
      messages,
      approvals: await this.deps.ledger.list({ threadId }),
      audit: await this.deps.ledger.auditTrail({ threadId }),
    };
  }

  private async ensureConversation(input: MessageInput): Promise<void> {
    if (input.customerId) {
      const exists = await this.deps.pool.query(`SELECT 1 FROM customers WHERE id = $1`, [input.customerId]);
      if (!exists.rowCount) throw new AgentError('unknown_customer', `No customer ${input.customerId}.`);
    }
    const r = await this.deps.pool.query<{ customer_id: string | null }>(
      `INSERT INTO conversations (thread_id, customer_id, source, slack_channel, slack_thread_ts, slack_user_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (thread_id) DO UPDATE SET updated_at = EXCLUDED.updated_at
       RETURNING customer_id`,
      [input.threadId, input.customerId, input.source, input.slack?.channel ?? null, input.slack?.threadTs ?? null, input.slack?.userId ?? null, this.deps.clock.now()],
    );
    if ((r.rows[0]?.customer_id ?? null) !== input.customerId) {
      throw new AgentError('thread_owned_by_other_customer', 'This conversation belongs to another customer; please start a new one.');
    }
  }

  /** Append to the transcript; false when a row with this key already exists (a repeated delivery). */
  private async transcript(threadId: string, role: 'customer' | 'agent' | 'event', text: string, meta: object = {}, key?: string): Promise<number | undefined> {
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
    await this.deps.pool.query(`UPDATE conversation_messages SET delivered_at = now() WHERE id = ANY($1::bigint[]) AND delivered_at IS NULL`, [replyIds]);
  }

  /** Deliver replies through the hook (Slack); without one (API conversations) they are delivered by being stored. */
  private async deliver(threadId: string, replies: string[], replyIds: number[]): Promise<void> {
    if (!replyIds.length) return;
    try {
      if (this.hooks.onReplies) await this.hooks.onReplies(threadId, replies);
      await this.markDelivered(replyIds);
    } catch (err) {
      this.deps.logger.warn({ err, thread_id: threadId }, 'reply delivery failed; the sweeper will retry');
    }
  }

  /** Replies that never reached the customer (a worker died, Slack was down): try again. */
  private async redeliver(graceMs: number): Promise<number> {
    const rows = (
      await this.deps.pool.query<{ id: number; thread_id: string; text: string }>(
        `SELECT id, thread_id, text FROM conversation_messages
         WHERE role = 'agent' AND delivered_at IS NULL AND created_at < now() - make_interval(secs => $1::float8 / 1000)
         ORDER BY id LIMIT 100`,
        [graceMs],
      )
    ).rows;
    const byThread = new Map<string, { ids: number[]; texts: string[] }>();
    for (const r of rows) {
      const t = byThread.get(r.thread_id) ?? { ids: [], texts: [] };
      t.ids.push(r.id);
      t.texts.push(r.text);
      byThread.set(r.thread_id, t);
    }
    for (const [threadId, t] of byThread) await this.deliver(threadId, t.texts, t.ids);
    return rows.length;
  }

  private async undeliveredTurn(threadId: string, before: Map<string, string>): Promise<TurnResult> {
    const rows = (
      await this.deps.pool.query<{ id: number; text: string }>(
        `SELECT id, text FROM conversation_messages WHERE thread_id = $1 AND role = 'agent' AND delivered_at IS NULL ORDER BY id`,
        [threadId],
      )
    ).rows;
    const all = await this.deps.ledger.list({ threadId });
    const pending = all.filter((a) => a.status === 'pending').reverse();
    return {
      threadId,
      status: pending.length ? 'pending_approval' : 'answered',
      reply: rows.map((r) => r.text).join('\n\n'),
      replies: rows.map((r) => r.text),
      replyIds: rows.map((r) => r.id),
      pending,
      changed: all.filter((a) => before.get(a.id) !== a.status),
      fallback: false,
    };
  }

  private async snapshot(threadId: string): Promise<Map<string, string>> {
    const rows = (await this.deps.pool.query<{ id: string; status: string }>(`SELECT id, status FROM approvals WHERE thread_id = $1`, [threadId])).rows;
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  private async finishRun(threadId: string, before: Map<string, string>): Promise<TurnResult> {
    const state = await this.deps.graph.getState(this.config(threadId));
    const values = state.values as AgentStateType;
    const replies = values.replies ?? [];
    const lastAi = [...(values.messages ?? [])].reverse().find((m) => m.getType() === 'ai');
    const fallback = (lastAi?.response_metadata as Record<string, unknown> | undefined)?.fallback === true;
    const replyIds: number[] = [];
    for (const r of replies) {
      const id = await this.transcript(threadId, 'agent', r, fallback ? { model: 'offline-planner', fallback: true } : {});
      if (id !== undefined) replyIds.push(id);
    }
    const all = await this.deps.ledger.list({ threadId });
    const changed = all.filter((a) => before.get(a.id) !== a.status);
    const pending = all.filter((a) => a.status === 'pending').reverse();
    return {
      threadId,
      status: pending.length ? 'pending_approval' : 'answered',
      reply: replies.join('\n\n'),
      replies,
      replyIds,
      pending,
      changed,
      fallback,
    };
  }

  private async notifyChanged(approvals: Approval[]) {
    if (!approvals.length || !this.hooks.onApprovalsChanged) return;
    try {
      await this.hooks.onApprovalsChanged(approvals);
    } catch (err) {
      this.deps.logger.error({ err }, 'approval hook failed');
    }
  }
}

const stableUuid = (key: string) => stableUuidFor(key, 'message');

const isInterrupted = (state: { tasks: readonly { interrupts?: readonly unknown[] }[] }) =>
  state.tasks.some((t) => (t.interrupts?.length ?? 0) > 0);
