import { z } from 'zod';
import { Address, CustomerId, CustomerOut, Email, Phone, Preferences } from './common.js';

export const UpdateCustomerInput = z.object({
  customer_id: CustomerId,
  changes: z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      email: Email.optional(),
      phone: Phone.optional(),
      address: Address.optional(),
      preferences: Preferences.optional(),
      notes: z.string().trim().max(2000).optional().describe('Replaces the staff notes.'),
    })
    .refine((c) => Object.values(c).some((v) => v !== undefined), { message: 'give at least one field to change' }),
});

export const UpdateCustomerOutput = z.object({
  customer_id: z.string(),
  changed_fields: z.array(z.string()).describe('Fields whose value actually changed.'),
  before: CustomerOut.describe('The record before the update.'),
  after: CustomerOut.describe('The record after the update.'),
});

export type UpdateCustomerArgs = z.infer<typeof UpdateCustomerInput>;
export type UpdateCustomerResult = z.infer<typeof UpdateCustomerOutput>;
