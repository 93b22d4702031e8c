import type { PlanContext } from './plan-context.js';

type Customer = PlanContext['customer'];

/**
 * The customer of a message's run, read by the statement that took the thread's lease (see
 * AgentService.handleMessage), for its plan steps: one read of the customers table fewer per
 * message. Only a message's run uses it: it changes no record (writes wait for approval), while a
 * decision's run executes them and so plans from a fresh read. Kept in memory, never in the
 * run's config, which tracing records.
 */
export class TurnCustomers {
  private readonly byThread = new Map<string, Customer>();

  /** `fn` with `customer` as the thread's customer for plan steps that run meanwhile. */
  async with<T>(threadId: string, customer: Customer, fn: () => Promise<T>): Promise<T> {
    this.byThread.set(threadId, customer);
    try {
      return await fn();
    } finally {
      this.byThread.delete(threadId);
    }
  }

  /** The customer read with the lease, when this thread's run has one and it is `customerId`'s. */
  get(threadId: string, customerId: string | null): Customer | undefined {
    if (!this.byThread.has(threadId)) return undefined;
    const customer = this.byThread.get(threadId)!;
    return (customer?.id ?? null) === customerId ? customer : undefined;
  }
}

/**
 * The read for the lease's statement (an expression over `$1`, the thread id): the conversation's
 * customer as the plan sees it, or null.
 */
export const TURN_CUSTOMER_SQL = `(SELECT row_to_json(c) FROM (
    SELECT id, name, email, phone FROM customers
    WHERE id = (SELECT customer_id FROM conversations WHERE thread_id = $1)) c)`;
