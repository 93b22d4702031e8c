import type { SendEmailArgs, SendEmailResult } from '../../schema/tools/send-email.js';
import type { WriteContext } from '../tool-handler.js';
import { ToolError } from '../../schema/tools/errors.js';
import { requireCustomer } from './shared.js';

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function sendEmail(args: SendEmailArgs, ctx: WriteContext): Promise<SendEmailResult> {
  const customer = await requireCustomer(ctx, ctx.tx, args.customer_id);
  let to: string;
  if (ctx.scope.kind === 'customer') {
    // An email tool is a way to carry data out of the company: in a customer's conversation it
    // writes only to the address on file, whatever the conversation asked for.
    if (args.to && (!customer.email || !sameAddress(args.to, customer.email))) {
      throw new ToolError(
        'out_of_scope',
        "In a customer conversation email goes only to the customer's address on file.",
        { customer_id: customer.id, field: 'to' },
      );
    }
    if (!customer.email) throw noEmail(customer.id);
    to = customer.email;
  } else {
    if (args.to) to = args.to;
    else if (customer.email) to = customer.email;
    else throw noEmail(customer.id);
  }
  const now = ctx.clock.now();
  const res = await ctx.tx.query<{ id: string; status: SendEmailResult['status'] }>(
    `INSERT INTO email_outbox (approval_id, customer_id, to_address, subject, body, status, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, 'queued', $6, $6)
     RETURNING id, status`,
    [ctx.approvalId, customer.id, to, args.subject, args.body, now],
  );
  const row = res.rows[0]!;
  return { email_id: row.id, to, subject: args.subject, status: row.status };
}

const noEmail = (customerId: string) =>
  new ToolError(
    'no_email_on_file',
    `Customer ${customerId} has no email address on file. ` +
      'Offer another way to reach them, or update their record first.',
    {
      customer_id: customerId,
    },
  );
