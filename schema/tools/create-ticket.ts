import { z } from 'zod';
import { CustomerId } from './common.js';

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_CATEGORIES = ['billing', 'scheduling', 'complaint', 'damage', 'technical', 'general'] as const;

export const CreateTicketInput = z.object({
  customer_id: CustomerId,
  subject: z.string().trim().min(3).max(150),
  description: z.string().trim().min(1).max(4000).describe("What happened, in the customer's words."),
  priority: z
    .enum(TICKET_PRIORITIES)
    .default('normal')
    .describe('urgent: safety or active damage; high: service failed; low: questions.'),
  category: z.enum(TICKET_CATEGORIES),
});

export const CreateTicketOutput = z.object({
  ticket: z.object({
    id: z.string().describe('Ticket id, e.g. TKT-1001.'),
    customer_id: z.string(),
    subject: z.string(),
    description: z.string(),
    priority: z.enum(TICKET_PRIORITIES),
    category: z.enum(TICKET_CATEGORIES),
    status: z.string(),
    created_at: z.string(),
  }),
});

export type CreateTicketArgs = z.infer<typeof CreateTicketInput>;
export type CreateTicketResult = z.infer<typeof CreateTicketOutput>;
