import type { CreateTicketArgs, CreateTicketResult } from '../../schema/tools/create-ticket.js';
import type { WriteContext } from '../tool-handler.js';
import { requireCustomer } from './shared.js';

export async function createTicket(args: CreateTicketArgs, ctx: WriteContext): Promise<CreateTicketResult> {
  await requireCustomer(ctx, ctx.tx, args.customer_id);
  const res = await ctx.tx.query<{
    id: string;
    customer_id: string;
    subject: string;
    description: string;
    priority: CreateTicketResult['ticket']['priority'];
    category: CreateTicketResult['ticket']['category'];
    status: string;
    created_at: Date;
  }>(
    `INSERT INTO tickets (customer_id, subject, description, priority, category, approval_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING id, customer_id, subject, description, priority, category, status, created_at`,
    [args.customer_id, args.subject, args.description, args.priority, args.category, ctx.approvalId, ctx.clock.now()],
  );
  const t = res.rows[0]!;
  return { ticket: { ...t, created_at: t.created_at.toISOString() } };
}
