import { z } from 'zod';
import { CustomerId, DateTime } from './common.js';

export const BookSlotInput = z.object({
  customer_id: CustomerId,
  service_id: z
    .string()
    .trim()
    .regex(/^svc_[a-z0-9_]{2,40}$/, 'must look like svc_standard_clean')
    .describe('From the service list.'),
  start_time: DateTime,
  notes: z.string().trim().max(1000).optional().describe('For the crew (access, pets, parking).'),
});

export const Booking = z.object({
  id: z.string().describe('Booking id, e.g. BKG-1001.'),
  customer_id: z.string(),
  service_id: z.string(),
  service_name: z.string(),
  crew: z.string(),
  starts_at: z.string(),
  ends_at: z.string(),
  price_cents: z.number().int(),
  status: z.string(),
});

export const BookSlotOutput = z.object({ booking: Booking });

export type BookSlotArgs = z.infer<typeof BookSlotInput>;
export type BookSlotResult = z.infer<typeof BookSlotOutput>;
