import { z } from 'zod';
import { CustomerId, Email } from './common.js';

export const SendEmailInput = z.object({
  customer_id: CustomerId,
  to: Email.optional().describe('Staff only; omit in a customer conversation.'),
  subject: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(10000),
});

export const SendEmailOutput = z.object({
  email_id: z.string().describe('Outbox id, e.g. EML-1001.'),
  to: z.string().describe('Where it goes.'),
  subject: z.string(),
  status: z
    .enum(['queued', 'sending', 'sent', 'failed'])
    .describe('Delivery is asynchronous: queued until the dispatcher sends it.'),
});

export type SendEmailArgs = z.infer<typeof SendEmailInput>;
export type SendEmailResult = z.infer<typeof SendEmailOutput>;
