import { z } from 'zod';
import { CustomerId, CustomerOut } from './common.js';

export const LookupCustomerInput = z
  .object({
    customer_id: CustomerId.optional(),
    email: z.string().trim().max(254).optional(),
    phone: z.string().trim().max(32).optional().describe('Any format.'),
    name: z.string().trim().min(2).max(200).optional().describe('Full or partial.'),
  })
  .refine((a) => Boolean(a.customer_id || a.email || a.phone || a.name), {
    message: 'give at least one of customer_id, email, phone or name',
  });

export const CustomerSummary = z.object({
  id: z.string().describe('Customer id.'),
  name: z.string().describe('Full name.'),
  email_hint: z.string().nullable().describe('Email with the local part masked, to tell candidates apart.'),
  city: z.string().nullable().describe('City on file.'),
});

export const LookupCustomerOutput = z.object({
  status: z
    .enum(['found', 'ambiguous', 'not_found'])
    .describe('found: one match; ambiguous: pick from candidates; not_found: none.'),
  customer: CustomerOut.nullable().describe('The customer, when exactly one matched.'),
  upcoming_bookings: z
    .array(
      z.object({
        id: z.string().describe('Booking id, e.g. BKG-1001: what reschedule_booking and cancel_booking take.'),
        service_id: z.string(),
        service_name: z.string(),
        starts_at: z.string().describe('Start, ISO 8601 with the business time-zone offset.'),
        ends_at: z.string(),
        crew: z.string(),
        price_cents: z.number().int(),
        status: z.string(),
      }),
    )
    .describe('Confirmed bookings of the matched customer that have not started yet, soonest first.'),
  open_tickets: z
    .array(z.object({ id: z.string(), subject: z.string(), status: z.string(), priority: z.string() }))
    .describe('Open tickets of the matched customer.'),
  candidates: z.array(CustomerSummary).describe('When ambiguous: the matching customers.'),
});

export type LookupCustomerArgs = z.infer<typeof LookupCustomerInput>;
export type LookupCustomerResult = z.infer<typeof LookupCustomerOutput>;
