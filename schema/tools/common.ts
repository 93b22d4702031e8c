import { z } from 'zod';

/*
 * Building blocks for tool schemas. Every schema here is sent to a model as a function
 * declaration, so it stays inside what the Gemini API accepts: no exclusiveMinimum, string
 * `format` only date-time, `enum` only on strings, short patterns, no $ref, no open maps.
 * Checks that JSON Schema can't carry in that subset (a valid email) are zod refinements: the
 * server still enforces them, the model just reads them in the description.
 */

export const CustomerId = z.string().regex(/^cus_[a-z0-9]{3,24}$/, 'must look like cus_001');

const EMAIL_RE = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[A-Za-z]{2,}$/;
export const isEmail = (s: string) => EMAIL_RE.test(s) && s.length <= 254;

export const Email = z.string().trim().max(254).refine(isEmail, 'must be a valid email address like name@example.com');

const PHONE_DIGITS = /\d/g;
export const Phone = z
  .string()
  .trim()
  .max(32)
  .refine(
    (s) =>
      /^[+\d().\-\s]+$/.test(s) &&
      (s.match(PHONE_DIGITS)?.length ?? 0) >= 7 &&
      (s.match(PHONE_DIGITS)?.length ?? 0) <= 15,
    {
      message: 'must be a phone number with 7 to 15 digits, like (555) 201-3344',
    },
  );

// z.iso.datetime() publishes its ~400-character regex as `pattern`, beyond Gemini's limit: validate
// with it, publish only `format: date-time`.
const isoDateTime = z.iso.datetime({ offset: true });
export const DateTime = z
  .string()
  .refine((s) => isoDateTime.safeParse(s).success, {
    message: 'must be an ISO 8601 date-time with offset, e.g. 2026-12-08T10:00:00-05:00',
  })
  .meta({ format: 'date-time' });

export const Address = z.object({
  line1: z.string().trim().min(3).max(200),
  unit: z.string().trim().max(40).optional(),
  city: z.string().trim().min(2).max(100),
  postal_code: z.string().trim().min(3).max(12),
});

export const AddressOut = z.object({
  line1: z.string(),
  unit: z.string().nullable().describe('Unit, if any.'),
  city: z.string().describe('City.'),
  postal_code: z.string(),
});

export const Preferences = z.object({
  contact: z.enum(['email', 'sms', 'phone']).optional(),
  preferred_time: z.enum(['mornings', 'afternoons', 'any']).optional(),
  eco_products: z.boolean().optional(),
  pets: z.string().trim().max(200).optional(),
});

export const CustomerOut = z.object({
  id: z.string().describe('Customer id.'),
  name: z.string().describe('Full name.'),
  email: z.string().nullable().describe('Email on file.'),
  phone: z.string().nullable().describe('Phone on file.'),
  address: AddressOut.nullable().describe('Address on file.'),
  preferences: z.record(z.string(), z.unknown()).describe('Preferences on file.'),
  notes: z.string().nullable().describe('Staff notes.'),
});
export type CustomerRecord = z.infer<typeof CustomerOut>;
