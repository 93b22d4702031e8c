import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Queryable } from '../../core/pg-pool.js';
import { phoneDigits } from '../../schema/customers/phone.js';
import { PUBLIC_DATA_TOOLS } from '../../schema/tools/catalog.js';
import { approvalEventOf } from '../plan-context.js';

/**
 * Which replies carry a customer's personal data (promise 9: in a channel others can read, those
 * go to the customer privately). Decided from what the turn did and from the reply's words, never
 * from the model's say-so: a model that pastes a phone number into a help-centre answer is caught.
 */

/** The messages of the current run: from its trigger (the customer's message or an approval update) on. */
export function currentTurn(messages: readonly BaseMessage[]): readonly BaseMessage[] {
  for (let i = messages.length - 1; i >= 0; i--) if (HumanMessage.isInstance(messages[i])) return messages.slice(i);
  return messages;
}

/** Did the turn read or change customer data: a lookup, a proposed write, a decision, an outcome, an expiry? */
export function touchesCustomerData(turn: readonly BaseMessage[]): boolean {
  return turn.some(
    (m) => approvalEventOf(m) !== undefined || (ToolMessage.isInstance(m) && !PUBLIC_DATA_TOOLS.has(m.name ?? '')),
  );
}

/** The values of a customer's record a reply must not show to others, normalised for matching. */
export interface RecordValues {
  emails: string[];
  /** Digits only, as `phoneDigits` compares them. */
  phones: string[];
  addressLines: string[];
  /** Booking and ticket ids. */
  ids: string[];
}

export async function recordValues(db: Queryable, customerId: string): Promise<RecordValues | undefined> {
  const r = await db.query<{
    email: string | null;
    phone: string | null;
    address_line1: string | null;
    ids: string[];
  }>(
    `SELECT c.email, c.phone, c.address_line1,
            ARRAY(SELECT b.id FROM bookings b WHERE b.customer_id = c.id
                  UNION ALL SELECT t.id FROM tickets t WHERE t.customer_id = c.id) AS ids
       FROM customers c WHERE c.id = $1`,
    [customerId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const phone = row.phone ? phoneDigits(row.phone) : '';
  return {
    emails: row.email ? [row.email.toLowerCase()] : [],
    // Fewer digits than a local number would match dates and prices, not a phone.
    phones: phone.length >= 7 ? [phone] : [],
    addressLines: row.address_line1 ? [addressKey(row.address_line1)].filter((a) => a.length >= 4) : [],
    ids: row.ids.map((id) => id.toLowerCase()),
  };
}

/** Does the text show any value of the record (an email, a phone in any format, the address line, an id)? */
export function mentionsRecord(text: string, v: RecordValues): boolean {
  const lower = text.toLowerCase();
  if (v.emails.some((e) => lower.includes(e))) return true;
  if (v.phones.length) {
    // Runs of digits with the separators phone numbers are written with; the record's digits inside one.
    const runs = (text.match(/\d[\d\s().+-]*\d/g) ?? []).map((run) => run.replace(/\D/g, ''));
    if (v.phones.some((p) => runs.some((run) => run.includes(p)))) return true;
  }
  if (v.addressLines.length) {
    const key = ` ${addressKey(text)} `;
    if (v.addressLines.some((a) => key.includes(` ${a} `))) return true;
  }
  return v.ids.some((id) => new RegExp(`(^|[^a-z0-9-])${escapeRegExp(id)}($|[^a-z0-9])`).test(lower));
}

/** Street words written either way ("Street" or "St.") compare equal. */
const STREET_WORDS: Record<string, string> = {
  street: 'st',
  road: 'rd',
  avenue: 'ave',
  lane: 'ln',
  drive: 'dr',
  terrace: 'ter',
  court: 'ct',
  place: 'pl',
  boulevard: 'blvd',
};

const addressKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => STREET_WORDS[w] ?? w)
    .join(' ');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
