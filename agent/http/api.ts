import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Config } from '../../core/config.js';
import type { Pool } from '../../core/db.js';
import { APPROVAL_STATUSES } from '../../schema/approval-status.js';
import { LedgerError, type Approval } from '../approvals/ledger.js';
import { AgentError, type AgentService, type TurnResult } from '../service.js';
import { LeaseBusyError } from '../thread-lease.js';
import { HttpError, Router } from './router.js';
import { RateLimiter } from './rate-limit.js';

const ChatBody = z.object({
  thread_id: z.string().trim().min(1).max(200).regex(/^[\w:.-]+$/, 'letters, digits and _ : . - only').optional(),
  customer: z.string().trim().min(1).max(254),
  message: z.string().min(1),
});
const ApproveBody = z.object({ approver: z.string().trim().min(1).max(100), args: z.record(z.string(), z.unknown()).optional() });
const RejectBody = z.object({ approver: z.string().trim().min(1).max(100), reason: z.string().trim().min(1).max(2000) });
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

const bearer = (req: IncomingMessage) => /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
const same = (a: string | undefined, b: string | undefined) =>
  Boolean(a && b && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b)));

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
 * The HTTP API beside Slack (same agent). Decisions need the manager key; everything else needs
 * API_KEY when one is configured. Per-caller rate limits are counted in Postgres.
 */
export function createApiRouter(deps: { config: Config; pool: Pool; agent: AgentService }): Router {
  const { config, pool, agent } = deps;
  const limiter = new RateLimiter(pool, config.RATE_LIMIT_PER_MINUTE);

  const caller = async (req: IncomingMessage, needsManager: boolean) => {
    const token = bearer(req);
    const isManager = same(token, config.MANAGER_API_KEY);
    if (needsManager) {
      if (!config.MANAGER_API_KEY) throw new HttpError(403, 'decisions_disabled', 'Decisions over HTTP are disabled: set MANAGER_API_KEY.');
      if (!isManager) throw new HttpError(403, 'manager_key_required', 'Only the manager key may decide approvals.');
    } else if (config.API_KEY && !isManager && !same(token, config.API_KEY)) {
      throw new HttpError(401, 'unauthorized', 'Send Authorization: Bearer <API_KEY>.');
    }
    const key = token ? `key:${token.slice(0, 12)}` : `ip:${req.socket.remoteAddress ?? 'unknown'}`;
    const limit = await limiter.hit(key);
    if (!limit.allowed) {
      throw new HttpError(429, 'rate_limited', `Too many requests; try again in ${limit.retryAfterSeconds} s.`, { retry_after_seconds: limit.retryAfterSeconds });
    }
  };

  const resolveCustomer = async (ref: string): Promise<string> => {
    const r = await pool.query<{ id: string }>(`SELECT id FROM customers WHERE id = $1 OR lower(email) = lower($1)`, [ref]);
    if (!r.rows[0]) throw new HttpError(404, 'unknown_customer', `No customer with id or email ${JSON.stringify(ref)}.`);
    return r.rows[0].id;
  };

  const decisionError = (err: unknown): never => {
    if (err instanceof LedgerError) {
      const status = { not_found: 404, already_decided: 409, expired: 410, invalid_arguments: 422, not_mutating: 400, not_pending: 409 }[err.code];
      throw new HttpError(status, err.code, err.message, {
        ...(err.approval ? { approval: approvalView(err.approval) } : {}),
        ...(err.issues ? { issues: err.issues } : {}),
      });
    }
    throw err;
  };

  const agentError = (err: unknown): never => {
    if (err instanceof AgentError) throw new HttpError(err.code === 'message_too_long' ? 413 : err.code === 'unknown_customer' ? 404 : 409, err.code, err.message);
    if (err instanceof LeaseBusyError) throw new HttpError(409, err.code, err.message);
    throw err;
  };

  return new Router()
    .on('POST', '/chat', async ({ req, body }) => {
      await caller(req, false);
      const b = parse(ChatBody, await body());
      const customerId = await resolveCustomer(b.customer);
      const turn = await agent
        .handleMessage({ threadId: b.thread_id ?? `api:${randomUUID()}`, customerId, text: b.message, source: 'api' })
        .catch(agentError);
      await agent.markDelivered(turn.replyIds); // the response carries them
      return { body: turnView(turn) };
    })
    .on('GET', '/approvals', async ({ req, query }) => {
      await caller(req, false);
      const status = query.get('status') ? parse(ApprovalStatus, query.get('status')) : undefined;
      const approvals = await agent.ledger.list({ status, customerId: query.get('customer') ?? undefined });
      return { body: { approvals: approvals.map(approvalView) } };
    })
    .on('GET', '/approvals/:id', async ({ req, params }) => {
      await caller(req, false);
      const a = await agent.ledger.get(params.id!);
      if (!a) throw new HttpError(404, 'not_found', `No approval ${params.id}.`);
      return { body: { approval: approvalView(a), audit: await agent.ledger.auditTrail({ approvalId: a.id }) } };
    })
    .on('GET', '/threads/:id', async ({ req, params }) => {
      await caller(req, false);
      const t = await agent.getThread(params.id!);
      if (!t) throw new HttpError(404, 'not_found', `No conversation ${params.id}.`);
      return { body: { ...t, approvals: t.approvals.map(approvalView) } };
    })
    .on('POST', '/approvals/:id/approve', async ({ req, params, body }) => {
      await caller(req, true);
      const b = parse(ApproveBody, await body());
      const out = await agent
        .decide({ approvalId: params.id!, approver: `api:${b.approver}`, decision: 'approve', args: b.args })
        .catch(decisionError);
      return { body: { approval: approvalView(out.approval), reply: out.turn?.reply ?? null } };
    })
    .on('POST', '/approvals/:id/reject', async ({ req, params, body }) => {
      await caller(req, true);
      const b = parse(RejectBody, await body());
      const out = await agent
        .decide({ approvalId: params.id!, approver: `api:${b.approver}`, decision: 'reject', reason: b.reason })
        .catch(decisionError);
      return { body: { approval: approvalView(out.approval), reply: out.turn?.reply ?? null } };
    });
}
