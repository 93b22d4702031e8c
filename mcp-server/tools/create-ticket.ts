import {
  CreateTicketInput,
  CreateTicketOutput,
  type CreateTicketArgs,
  type CreateTicketResult,
} from '../../schema/tools/create-ticket.js';
import { defineWriteTool, type WriteContext } from '../define-tool.js';
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

export const createTicketTool = defineWriteTool({
  name: 'create_ticket',
  title: 'Create a support ticket',
  verb: 'Create a support ticket',
  description:
    'Open a support ticket for a customer so the team follows up: complaints, damage, billing questions, anything the help centre cannot settle in the conversation. ' +
    'Needs the customer_id, a one-line subject, a description in the customer\'s words, a category and a priority (urgent only for safety or active damage). ' +
    "Changes data: it runs only after a manager approves the exact arguments. Returns the ticket with its id (TKT-…).",
  input: CreateTicketInput,
  output: CreateTicketOutput,
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: createTicket,
});
