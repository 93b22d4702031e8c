import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Clock } from '../core/clock.js';
import type { Pool } from '../core/pg-pool.js';
import type { Logger } from '../core/logger.js';
import type { CallMeta } from '../schema/tools/call-meta.js';
import type { Ledger } from './approvals/ledger.js';
import type { PlanContext } from './plan-context.js';
import type { AgentStateType } from './state.js';
import type { ToolClient } from './tool-client.js';
import type { TurnCustomers } from './turn-customer.js';

/** Everything the graph's nodes need, injected so tests and evals can pin the clock and model. */
export interface AgentDeps {
  pool: Pool;
  tools: ToolClient;
  ledger: Ledger;
  model: BaseChatModel;
  clock: Clock;
  timeZone: string;
  logger: Logger;
  workerId: string;
  windowSize?: number;
  maxSteps?: number;
  /** The customer a message's run read with its lease (agent/turn-customer.ts). */
  turnCustomers?: TurnCustomers;
}

/** The `_meta` of every tool call in a conversation: identity from the conversation, not the model. */
export const callMeta = (
  state: Pick<AgentStateType, 'threadId' | 'customerId'>,
  extra: Partial<CallMeta> = {},
): CallMeta => ({
  thread_id: state.threadId,
  ...(state.customerId ? { customer_id: state.customerId } : { anonymous: true }),
  ...extra,
});

export async function loadCustomer(pool: Pool, customerId: string | null): Promise<PlanContext['customer']> {
  if (!customerId) return null;
  const r = await pool.query<{ id: string; name: string; email: string | null; phone: string | null }>(
    `SELECT id, name, email, phone FROM customers WHERE id = $1`,
    [customerId],
  );
  return r.rows[0] ?? null;
}

let servicesCache: { at: number; rows: PlanContext['services'] } | undefined;
export async function loadServices(pool: Pool): Promise<PlanContext['services']> {
  if (servicesCache && Date.now() - servicesCache.at < 60_000) return servicesCache.rows;
  const rows = (
    await pool.query<PlanContext['services'][number]>(
      `SELECT id, name, category, duration_minutes, price_cents, description FROM services WHERE active
       ORDER BY category, name`,
    )
  ).rows;
  servicesCache = { at: Date.now(), rows };
  return rows;
}
