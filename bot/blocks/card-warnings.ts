import type { Approval } from '../../agent/approvals/ledger.js';
import { samePhone } from '../../schema/customers/phone.js';
import { bookingConflicts, visitEnd, type BookingConflict } from '../../schema/business/booking-conflicts.js';
import { escapeText } from '../escape.js';
import { bookingLabel } from './card-bookings.js';
import { changeableTarget, newStartOf, requestFee, targetProblem } from './card-booking-change.js';
import type { BookingRow, CardContext } from './card-context.js';
import { humanize, money, showValue, when } from './format.js';
import { mrkdwn, type Block } from './types.js';

/**
 * What a manager should notice before approving, one line each: a likely duplicate booking, an
 * overlapping visit, a booking that isn't there to change, a fee, a "change" to the value the
 * record already has, an email to an address that isn't the customer's. Only pending cards get
 * them: once decided, the data has moved on (a booking made is not its own duplicate).
 */
export function cardWarnings(a: Approval, ctx: CardContext): string[] {
  if (a.status !== 'pending') return [];
  switch (a.tool) {
    case 'book_slot':
      return bookSlotWarnings(a, ctx);
    case 'reschedule_booking':
    case 'cancel_booking':
      return bookingChangeWarnings(a, ctx);
    case 'update_customer':
      return sameValueWarnings(a, ctx);
    case 'send_email':
      return recipientWarnings(a, ctx);
    default:
      return [];
  }
}

/** The warnings as one block for above the buttons, or none. */
export function warningBlock(lines: string[]): Block | undefined {
  if (!lines.length) return undefined;
  let text = lines.map((l) => `⚠️ ${l}`).join('\n');
  if (text.length > 2990) text = `${text.slice(0, 2989)}…`;
  return { type: 'section', block_id: 'approval_warnings', text: mrkdwn(text) };
}

function conflictLines(conflicts: BookingConflict<BookingRow>[], ctx: CardContext, duplicateHint: string): string[] {
  return conflicts.map(({ booking, overlaps }) =>
    overlaps
      ? `This visit overlaps the customer's ${bookingLabel(booking, ctx.timeZone)}.`
      : `Customer already has ${bookingLabel(booking, ctx.timeZone)}${duplicateHint}`,
  );
}

function bookSlotWarnings(a: Approval, ctx: CardContext): string[] {
  const start = typeof a.args.start_time === 'string' ? new Date(a.args.start_time) : undefined;
  const service = ctx.services.find((s) => s.id === a.args.service_id);
  if (!ctx.upcomingBookings || !service || !start || Number.isNaN(start.getTime())) return [];
  const conflicts = bookingConflicts(
    { service_id: service.id, starts_at: start, ends_at: visitEnd(start, service.duration_minutes) },
    ctx.upcomingBookings,
  );
  return conflictLines(conflicts, ctx, ': a second visit, or did they mean to reschedule that one?');
}

function bookingChangeWarnings(a: Approval, ctx: CardContext): string[] {
  const problem = targetProblem(a, ctx);
  if (problem) return [problem];
  const target = changeableTarget(a, ctx);
  if (!target) return [];
  const lines: string[] = [];
  const next = newStartOf(a);
  if (a.tool === 'reschedule_booking' && next) {
    if (next.getTime() === target.starts_at.getTime())
      lines.push(`\`${escapeText(target.id)}\` is already at that time: nothing would change.`);
    else if (ctx.upcomingBookings) {
      const length = target.ends_at.getTime() - target.starts_at.getTime();
      const conflicts = bookingConflicts(
        {
          service_id: target.service_id,
          starts_at: next,
          ends_at: new Date(next.getTime() + length),
          replaces: target.id,
        },
        ctx.upcomingBookings,
      );
      lines.push(...conflictLines(conflicts, ctx, '.'));
    }
  }
  const verb = a.tool === 'cancel_booking' ? 'Cancelling' : 'Moving';
  const fee = requestFee(a, ctx);
  if (fee?.fee_cents)
    lines.push(
      `${verb} it costs ${money(fee.fee_cents)}: ${escapeText(fee.rule)} ` +
        `(asked ${fee.notice_hours} h before the visit).`,
    );
  return lines;
}

const squash = (v: unknown) =>
  String(v ?? '')
    .trim()
    .replace(/\s+/g, ' ');

export const sameEmail = (a: string, b: string) => squash(a).toLowerCase() === squash(b).toLowerCase();

/** Whether a proposed value is the one the record has, as people would read them. */
function sameAs(key: string, current: unknown, next: unknown): boolean {
  if (next === undefined) return false;
  if (key === 'phone') return samePhone(squash(current), squash(next));
  if (key === 'email') return sameEmail(String(current ?? ''), String(next));
  return squash(current) === squash(next);
}

function sameValueWarnings(a: Approval, ctx: CardContext): string[] {
  const c = ctx.customer;
  if (!c) return [];
  const changes = (a.args.changes ?? {}) as Record<string, unknown>;
  const lines: string[] = [];
  const already = (label: string, value: unknown) =>
    lines.push(`${escapeText(label)} is already ${showValue(value, 200)}: nothing would change.`);
  for (const [key, next] of Object.entries(changes)) {
    if (next === undefined) continue;
    if (key === 'address' && next && typeof next === 'object') {
      const n = next as Record<string, unknown>;
      const now = { line1: c.address_line1, unit: c.address_unit, city: c.city, postal_code: c.postal_code };
      const same = (['line1', 'unit', 'city', 'postal_code'] as const).every(
        (k) => squash(now[k]).toLowerCase() === squash(n[k]).toLowerCase(),
      );
      if (same && c.address_line1)
        already('Address', [now.line1, now.unit, now.city, now.postal_code].filter(Boolean).join(', '));
    } else if (key === 'preferences' && next && typeof next === 'object') {
      const prefs = c.preferences ?? {};
      for (const [k, v] of Object.entries(next as Record<string, unknown>))
        if (v !== undefined && prefs[k] !== undefined && sameAs(k, prefs[k], v)) already(humanize(k), prefs[k]);
    } else {
      const current = (c as unknown as Record<string, unknown>)[key];
      if (current !== null && current !== undefined && sameAs(key, current, next)) already(humanize(key), current);
    }
  }
  return lines;
}

function recipientWarnings(a: Approval, ctx: CardContext): string[] {
  if (!ctx.customer) return [];
  const onFile = ctx.customer.email;
  const to = typeof a.args.to === 'string' ? a.args.to : undefined;
  if (!to) return onFile ? [] : ['No email address on file: there is nowhere to send it.'];
  if (!onFile) return [`Sends to ${escapeText(to)}; the customer has no address on file.`];
  return sameEmail(onFile, to) ? [] : [`Sends to ${escapeText(to)}, not the address on file (${escapeText(onFile)}).`];
}
