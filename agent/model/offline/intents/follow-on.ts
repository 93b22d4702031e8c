import { lastStartHour } from '../../../../schema/business/calendar.js';
import { localParts } from '../../../../core/time.js';
import type { PlanContext } from '../../../plan-context.js';
import { followOnStart, followsOn } from '../analysis/follow-on.js';
import { segments } from '../analysis/segments.js';
import { matchServices, type Service } from '../analysis/services.js';
import { extractWhen, formatClock } from '../analysis/when.js';
import { isRecord } from '../analysis/text.js';
import type { PlannedCall } from './turn.js';

/**
 * The service a later segment asks to have straight after another visit, with no day of its own; the clock time
 * it says too, if any ("a handyman hour straight after at 11"), which the end of the other visit must agree with.
 */
export function followOnService(
  text: string,
  ctx: PlanContext,
): (Service & { saidTime?: { hour: number; minute: number } }) | undefined {
  const parts = segments(text);
  // One segment ("push the job to friday at 9, and while your guy's there book a handyman hour straight after"):
  // the visit asked for after it is in a clause of its own.
  const later = parts.length > 1 ? parts.slice(1) : text.split(/,\s*(?:and\s+)?|\s+and\s+/).slice(1);
  for (const seg of later) {
    if (!followsOn(seg)) continue;
    const m = matchServices(seg, ctx.services).matches;
    const w = extractWhen(seg, ctx.now, ctx.timeZone);
    if (m.length !== 1 || w.date) continue;
    if (!w.time) return m[0];
    return { ...m[0]!, saidTime: { hour: w.time.hour, minute: w.time.minute } };
  }
  return undefined;
}

/**
 * The booking of `serviceId` straight after a visit moved by `move` (a reschedule_booking call), once the lookup
 * says which service the moved booking is; a note instead when that start would run past closing.
 */
export function followOnBooking(
  serviceId: string,
  move: PlannedCall | undefined,
  lookup: unknown,
  ctx: PlanContext,
  saidTime?: { hour: number; minute: number },
): { call?: PlannedCall; note?: string } {
  const start = move?.name === 'reschedule_booking' ? String(move.args.new_start_time ?? '') : '';
  const bookings = isRecord(lookup) && Array.isArray(lookup.upcoming_bookings) ? lookup.upcoming_bookings : [];
  const moved = bookings.filter(isRecord).find((b) => b.id === move?.args.booking_id);
  const first = ctx.services.find((s) => s.id === moved?.service_id);
  const next = ctx.services.find((s) => s.id === serviceId);
  if (!start || !first || !next) return {};
  const at = followOnStart(start, first.duration_minutes, ctx.timeZone);
  const local = localParts(new Date(at), ctx.timeZone);
  const last = lastStartHour(local, next.duration_minutes);
  if (last === undefined || local.hour > last || local.minute !== 0) {
    return {
      note:
        `Straight after that visit would run past our closing time for ${next.name}, so I haven't requested it. ` +
        'Which day and time would suit you for it?',
    };
  }
  // "straight after at 1" when the moved visit ends at 2: which of the two they meant is theirs to say.
  if (saidTime && (saidTime.hour !== local.hour || saidTime.minute !== local.minute)) {
    return {
      note:
        `Straight after that visit is ${formatClock(local)}, not the time you said, so I haven't requested the ` +
        `${next.name} yet. Which time would you like for it?`,
    };
  }
  const customerId = String(move!.args.customer_id ?? '');
  return { call: { name: 'book_slot', args: { customer_id: customerId, service_id: next.id, start_time: at } } };
}
