import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Config } from '../../core/config.js';
import type { Pool } from '../../core/pg-pool.js';
import type { Logger } from '../../core/logger.js';
import { storableJson, storableText } from '../../core/storable-text.js';
import { APPROVAL_STATUSES } from '../../schema/approval-status.js';
import { LedgerError, type Approval } from '../approvals/ledger.js';
import { AgentError, type AgentService, type TurnResult } from '../service.js';
import { ApiKeys, clientAddress, presentedCredential, type Identity, type Role } from './auth.js';
import { HttpError, Router } from './router.js';
import { RateLimiter, type RateDecision } from './rate-limit.js';

/** The namespace of API conversations: Slack's are `slack:<channel>:<ts>`, so the two never meet. */
const API_THREAD_PREFIX = 'api:';

// User text is made storable (NUL dropped, lone surrogates replaced) before it can reach Postgres.
const text = (max: number) => z.string().transform(storableText).pipe(z.string().trim().min(1).max(max));
const ChatBody = z.object({
  thread_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[\w:.-]+$/, 'letters, digits and _ : . - only')
    .optional(),
  // An identifier is refused rather than cleaned: dropping a NUL could turn it into someone else's.
  customer: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters'),
  message: z.string().min(1).transform(storableText),
});
// `approver` is accepted for old clients and only logged: the recorded approver is the key's identity.
const approverNote = z.string().max(100).optional();
const ApproveBody = z.object({
  approver: approverNote,
  args: z.record(z.string(), z.unknown()).transform(storableJson).optional(),
});
const RejectBody = z.object({ approver: approverNote, reason: text(2000) });
const ApprovalStatus = z.enum(APPROVAL_STATUSES);

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new HttpError(400, 'invalid_request', 'The request is not valid.', {
      issues: r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  return r.data;
}

const rateLimited = (limit: RateDecision) =>
  new HttpError(
    429,
    'rate_limited',
    `Too many requests; try again in ${limit.retryAfterSeconds} s.`,
    { retry_after_seconds: limit.retryAfterSeconds },
    {
      'retry-after': String(limit.retryAfterSeconds),
    },
  );

export function approvalView(a: Approval) {
  return {
    id: a.id,
    thread_id: a.thread_id,
    tool: a.tool,
    status: a.status,
    args: a.args,
    original_args: a.args_original,
    customer_id: a.customer_id,
    request_text: a.request_text,
    approver: a.approver,
    decided_at: a.decided_at,
    reason: a.decision_reason,
    expires_at: a.expires_at,
    superseded_by: a.superseded_by,
    executed_at: a.executed_at,
    result: a.result,
    error: a.error,
    created_at: a.created_at,
  };
}

const turnView = (t: TurnResult) => ({
  thread_id: t.threadId,
  status: t.status,
  reply: t.reply,
  approvals: t.pending.map((a) => ({ id: a.id, tool: a.tool, args: a.args, expires_at: a.expires_at })),
  fallback: t.fallback,
});

/**
 * The HTTP API beside Slack (same agent). Closed by default: decisions and every read that shows
 * customer data need a manager key; POST /chat needs API_KEY when one is configured (without one
 * it is open, which the product allows on a loopback bind only). Per-caller rate limits are
 * counted in Postgres; wrong keys are counted per client address in a stricter bucket.
 */
export function createApiRouter(deps: {
  config: Config;
  pool: Pool;
  agent: AgentService;
  logger?: Logger;
  now?: () => number;
}): Router {
  const { config, pool, agent, logger } = deps;
  const keys = new ApiKeys(config);
  const limiter = new RateLimiter(pool, config.RATE_LIMIT_PER_MINUTE, deps.now);
  const failures = new RateLimiter(pool, config.AUTH_FAILURES_PER_MINUTE, deps.now);

  /** Who is calling (undefined: anonymous local development), after the rate limits and the role check. */
  const caller = async (req: IncomingMessage, needs: Role): Promise<Identity | undefined> => {
    const address = clientAddress(req);
    const credential = presentedCredential(req);
    if (credential !== undefined) {
      const identity = keys.identify(credential);
      const failed = `authfail:${address}`;
      if (!identity) {
        const f = await failures.hit(failed);
        // One warning when an address runs out of budget, not one per guess.
        if (f.allowed && f.remaining === 0)
          logger?.warn({ address }, 'http api: wrong-key budget used up; this address gets 429 until the window ends');
        else logger?.debug({ address, failures_left: f.remaining }, 'http api: wrong key');
        if (!f.allowed) throw rateLimited(f);
        throw new HttpError(401, 'invalid_key', 'That key is not valid.');
      }
      // While an address is out of failure budget a right guess must look like a wrong one, or
      // the budget would not bound guessing.
      const { blocked, limit } = await limiter.hitUnless(`id:${identity.name}`, failures, failed);
      if (blocked) throw rateLimited(blocked);
      if (!limit!.allowed) throw rateLimited(limit!);
      if (needs === 'manager' && identity.role !== 'manager') {
        if (!keys.hasManagerKeys) throw managerApiDisabled();
        throw new HttpError(403, 'manager_key_required', 'This needs a manager key.');
      }
      return identity;
    }
    const limit = await limiter.hit(`ip:${address}`);
    if (!limit.allowed) throw rateLimited(limit);
    if (needs === 'manager') {
      if (!keys.hasManagerKeys) throw managerApiDisabled();
      throw new HttpError(401, 'unauthorized', 'Send Authorization: Bearer <MANAGER_API_KEY>.');
    }
    if (keys.hasClientKey) throw new HttpError(401, 'unauthorized', 'Send Authorization: Bearer <API_KEY>.');
    return undefined;
  };

  const managerApiDisabled = () =>
    new HttpError(
      403,
      'manager_api_disabled',
      'Decisions and customer data over HTTP are off: set MANAGER_API_KEY or MANAGER_API_KEYS.',
    );

  /** A client may name a thread, but only one of the API's own: never a Slack (or eval) conversation. */
  const apiThread = async (requested: string | undefined): Promise<string> => {
    if (requested === undefined) return `${API_THREAD_PREFIX}${randomUUID()}`;
    const notApi = () =>
      new HttpError(
        403,
        'thread_not_api',
        `An API conversation's thread_id starts with "${API_THREAD_PREFIX}" and belongs to the API; this one does not.`,
      );
    if (!requested.startsWith(API_THREAD_PREFIX)) throw notApi();
    const r = await pool.query<{ source: string }>(`SELECT source FROM conversations WHERE thread_id = $1`, [
      requested,
    ]);
    if (r.rows[0] && r.rows[0].source !== 'api') throw notApi();
    return requested;
  };

  const resolveCustomer = async (ref: string): Promise<string> => {
    const r = await pool.query<{ id: string }>(`SELECT id FROM customers WHERE id = $1 OR lower(email) = lower($1)`, [
      ref,
    ]);
    if (!r.rows[0])
      throw new HttpError(404, 'unknown_customer', `No customer with id or email ${JSON.stringify(ref)}.`);
    return r.rows[0].id;
  };

  const decisionError = (err: unknown): never => {
    if (err instanceof LedgerError) {
      const status = {
        not_found: 404,
        already_decided: 409,
        expired: 410,
        invalid_arguments: 422,
        not_mutating: 400,
        not_pending: 409,
        // The edit could not be rehearsed: nothing was decided, the same request may be sent again.
        rehearsal_unavailable: 503,
      }[err.code];
      // A refused time comes with the free times next to it: offered to the caller as they are.
      const alternatives = err.issues?.find((i) => i.alternatives)?.alternatives;
      throw new HttpError(
        status,
        err.code,
        err.message,
        {
          ...(err.approval ? { approval: approvalView(err.approval) } : {}),
          ...(err.issues ? { issues: err.issues } : {}),
          ...(alternatives ? { alternatives } : {}),
        },
        err.code === 'rehearsal_unavailable' ? { 'retry-after': '30' } : undefined,
      );
    }
    throw err;
  };

  const agentError = (err: unknown): never => {
    if (err instanceof AgentError) {
      const status =
        (
          { message_too_long: 413, unknown_customer: 404, empty_message: 400, overloaded: 503 } as Record<
            string,
            number
          >
        )[err.code] ?? 409;
      throw new HttpError(
        status,
        err.code,
        err.message,
        undefined,
        err.code === 'overloaded' ? { 'retry-after': '5' } : undefined,
      );
    }
    if ((err as { code?: unknown })?.code === 'tool_server_unavailable') {
      // The worker's tool server is restarting: the turn stopped at a tool call; the caller may retry.
      throw new HttpError(
        503,
        'tool_server_unavailable',
        'The tool server is restarting; please send the message again in a few seconds.',
        undefined,
        { 'retry-after': '5' },
      );
    }
    throw err;
  };

  const decide = async (
    who: Identity,
    approvalId: string,
    decision: { decision: 'approve'; args?: Record<string, unknown> } | { decision: 'reject'; reason: string },
    note: string | undefined,
  ) => {
    logger?.info({ approval_id: approvalId, approver: who.name, approver_note: note }, 'http api: decision');
    const out = await agent.decide({ approvalId, approver: who.name, ...decision }).catch(decisionError);
    return { body: { approval: approvalView(out.approval), reply: out.turn?.reply ?? null } };
  };

  return new Router()
    .on('POST', '/chat', async ({ req, body }) => {
      await caller(req, 'client');
      const b = parse(ChatBody, await body());
      const threadId = await apiThread(b.thread_id);
      const customerId = await resolveCustomer(b.customer);
      // The response carries the replies: an API conversation's are delivered by being stored.
      const turn = await agent
        .handleMessage({ threadId, customerId, text: b.message, source: 'api' })
        .catch(agentError);
      return { body: turnView(turn) };
    })
    .on('GET', '/approvals', async ({ req, query }) => {
      await caller(req, 'manager');
      const status = query.get('status') ? parse(ApprovalStatus, query.get('status')) : undefined;
      const customer = query.get('customer');
      const approvals = await agent.ledger.list({ status, customerId: customer ? storableText(customer) : undefined });
      return { body: { approvals: approvals.map(approvalView) } };
    })
    .on('GET', '/approvals/:id', async ({ req, params }) => {
      await caller(req, 'manager');
      const a = await agent.ledger.get(params.id!);
      if (!a) throw new HttpError(404, 'not_found', `No approval ${params.id}.`);
      return { body: { approval: approvalView(a), audit: await agent.ledger.auditTrail({ approvalId: a.id }) } };
    })
    .on('GET', '/threads/:id', async ({ req, params }) => {
      await caller(req, 'manager');
      const t = await agent.getThread(params.id!);
      if (!t) throw new HttpError(404, 'not_found', `No conversation ${params.id}.`);
      return { body: { ...t, approvals: t.approvals.map(approvalView) } };
    })
    .on('POST', '/approvals/:id/approve', async ({ req, params, body }) => {
      // The caller is checked before the body is read: an unauthorised request learns nothing from validation.
      const who = (await caller(req, 'manager'))!;
      const b = parse(ApproveBody, await body());
      return decide(who, params.id!, { decision: 'approve', args: b.args }, b.approver);
    })
    .on('POST', '/approvals/:id/reject', async ({ req, params, body }) => {
      const who = (await caller(req, 'manager'))!;
      const b = parse(RejectBody, await body());
      return decide(who, params.id!, { decision: 'reject', reason: b.reason }, b.approver);
    });
}
