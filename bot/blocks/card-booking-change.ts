import type { Approval } from '../../agent/approvals/ledger.js';
import { changeFee, type ChangeFee } from '../../schema/business/change-policy.js';
import { changeKindOf } from '../../schema/tools/catalog.js';
import { escapeText, quote } from '../escape.js';
import type { BookingRow, CardContext } from './card-context.js';
import { field, sectionsOfFields } from './card-fields.js';
import { money, showValue, when } from './format.js';
import { mrkdwn, type Block } from './types.js';

/** reschedule_booking and cancel_booking: which booking, what changes, and what it costs. */

const validDate = (v: unknown): Date | undefined =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v) : undefined;

export const newStartOf = (a: Approval) => validDate(a.args.new_start_time);

/**
 * Why the booking the proposal names can't be changed as it stands, as a warning line: it doesn't
 * exist, it isn't this customer's, it was cancelled, or it has started. Undefined when it can be
 * (or when the booking wasn't loaded, so nothing is known).
 */
export function targetProblem(a: Approval, ctx: CardContext): string | undefined {
  if (ctx.targetBooking === undefined) return undefined;
  const id = `\`${escapeText(String(a.args.booking_id ?? ''))}\``;
  const b = ctx.targetBooking;
  if (!b) return `There is no booking ${id}.`;
  if (b.customer_id !== a.customer_id) return `${id} belongs to another customer, not this one.`;
  if (b.status === 'cancelled') return `${id} is cancelled.`;
  if (ctx.now && b.starts_at <= ctx.now)
    return `${id} has already started (${escapeText(when(b.starts_at, ctx.timeZone))}).`;
  return undefined;
}

/** The booking when it is this customer's and still changeable. */
export function changeableTarget(a: Approval, ctx: CardContext): BookingRow | undefined {
  return ctx.targetBooking && !targetProblem(a, ctx) ? ctx.targetBooking : undefined;
}

/**
 * The fee the tool will charge: the help centre promises that "timing rules use the moment you
 * made the request", so it is set by when the customer asked (the approval's creation), however
 * late a manager decides.
 */
export function requestFee(a: Approval, ctx: CardContext): ChangeFee | undefined {
  const kind = changeKindOf(a.tool);
  const b = changeableTarget(a, ctx);
  if (!kind || !b) return undefined;
  return changeFee(kind, { startsAt: b.starts_at, now: a.created_at, priceCents: b.price_cents });
}

export const feeText = (f: Pick<ChangeFee, 'fee_cents' | 'rule'>) =>
  f.fee_cents ? `${money(f.fee_cents)} (${escapeText(f.rule)})` : `No fee (${escapeText(f.rule)})`;

const bookingField = (a: Approval, b: BookingRow | null | undefined) =>
  field(
    'Booking',
    b ? `${escapeText(b.service_name)} (\`${escapeText(b.id)}\`)` : showValue(a.args.booking_id as string | undefined),
  );

const resultOf = (a: Approval) =>
  (a.status === 'executed' && a.result && typeof a.result === 'object' ? a.result : {}) as {
    previous?: { starts_at?: string };
    fee?: ChangeFee;
  };

/** The fee field: what the change will cost (pending), or what it cost (done). */
function feeField(a: Approval, ctx: CardContext): ReturnType<typeof field> | undefined {
  const charged = resultOf(a).fee;
  if (charged) return field('Fee', feeText(charged));
  const fee = a.status === 'pending' ? requestFee(a, ctx) : undefined;
  return fee ? field('Fee', feeText(fee)) : undefined;
}

export function rescheduleBlocks(a: Approval, ctx: CardContext): Block[] {
  const target = ctx.targetBooking;
  const next = newStartOf(a);
  // Once moved, the booking row holds the new time: the old one is in the result.
  const from = validDate(resultOf(a).previous?.starts_at) ?? target?.starts_at;
  const to = next ? `*${escapeText(when(next, ctx.timeZone))}*` : showValue(a.args.new_start_time);
  const fields = [
    bookingField(a, target),
    field('Move', from ? `${escapeText(when(from, ctx.timeZone))} → ${to}` : `→ ${to}`),
  ];
  const fee = feeField(a, ctx);
  if (fee) fields.push(fee);
  return sectionsOfFields(fields);
}

export function cancelBlocks(a: Approval, ctx: CardContext): Block[] {
  const target = ctx.targetBooking;
  const fields = [bookingField(a, target)];
  if (target) fields.push(field('When', escapeText(when(target.starts_at, ctx.timeZone))));
  const fee = feeField(a, ctx);
  if (fee) fields.push(fee);
  const blocks = sectionsOfFields(fields);
  const reason = a.args.reason;
  if (typeof reason === 'string' && reason)
    blocks.push({ type: 'section', text: mrkdwn(`*Reason given*\n${quote(reason, 1500)}`) });
  return blocks;
}

/** What an executed reschedule or cancellation did, from the tool's stored result. */
export function bookingChangeSummary(a: Approval, timeZone: string): string {
  const r = (a.result ?? {}) as {
    booking?: { id?: string; service_name?: string; starts_at?: string; crew?: string };
    fee?: ChangeFee;
  };
  const b = r.booking;
  if (!b?.id) return a.tool === 'cancel_booking' ? 'Cancelled.' : 'Moved.';
  const fee = r.fee ? (r.fee.fee_cents ? `; fee ${money(r.fee.fee_cents)}.` : '; no fee.') : '.';
  const at = b.starts_at ? escapeText(when(b.starts_at, timeZone)) : '';
  return a.tool === 'cancel_booking'
    ? `Booking \`${escapeText(b.id)}\` cancelled (${escapeText(b.service_name ?? '')}, ${at})${fee}`
    : `Booking \`${escapeText(b.id)}\` moved to ${at}${b.crew ? ` (${escapeText(b.crew)})` : ''}${fee}`;
}
