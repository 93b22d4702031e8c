import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Queryable } from '../../core/pg-pool.js';
import { approvalEventOf, type ApprovalEvent } from '../plan-context.js';
import { textOf } from '../window.js';

let n = 0;
export const call = (name: string, args: Record<string, unknown>) => ({
  name,
  args,
  id: `call_${++n}_${name}`,
  type: 'tool_call' as const,
});

export const say = (text: string) => new AIMessage({ content: text });
export const propose = (...calls: ReturnType<typeof call>[]) => new AIMessage({ content: '', tool_calls: calls });

export const lastOf = (messages: BaseMessage[]) => messages[messages.length - 1]!;
export const lastEvent = (messages: BaseMessage[]): ApprovalEvent | undefined => approvalEventOf(lastOf(messages));
export const isCustomer = (m: BaseMessage, re: RegExp) =>
  HumanMessage.isInstance(m) && !approvalEventOf(m) && re.test(textOf(m));
export const isToolResult = (m: BaseMessage) => ToolMessage.isInstance(m);

/** The first start time (UTC ISO) at which one crew has `hours` consecutive free crew-hours. */
export async function freeStart(db: Queryable, hours: number, offset = 0): Promise<string> {
  const r = await db.query<{ starts_at: Date }>(
    `SELECT s.starts_at FROM slots s
     WHERE (SELECT count(*) FROM slots x
            WHERE x.crew = s.crew AND x.starts_at >= s.starts_at
              AND x.starts_at < s.starts_at + make_interval(hours => $1::int)
              AND NOT EXISTS (SELECT 1 FROM booking_slots b WHERE b.slot_id = x.id)) = $1::int
     ORDER BY s.starts_at LIMIT 1 OFFSET $2`,
    [hours, offset],
  );
  return r.rows[0]!.starts_at.toISOString();
}

export async function count(
  db: Queryable,
  table: 'tickets' | 'bookings' | 'email_outbox',
  where = 'TRUE',
  params: unknown[] = [],
) {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params)).rows[0]!.n;
}
