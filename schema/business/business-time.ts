import type { ApprovalExpiry } from '../../core/config.js';
import { addDays, localParts, zonedTime } from '../../core/time.js';
import { openingHours, type LocalDate } from './calendar.js';

/**
 * Time as the business counts it, from the calendar's data: a request sent at 2 AM must still be
 * decidable when the managers arrive, so how long it waits is measured in opening time, not on the
 * wall clock. "Business hours" of a day are its opening span: from the first start hour to one
 * hour after the last start (the last visit starts at 17:00, so Monday's span ends at 18:00).
 */

export type { ApprovalExpiry };

/** Far enough to cross any run of closed days the calendar could hold; a calendar with none open is a bug. */
const MAX_DAYS_AHEAD = 400;

/** The opening span of a local day as instants, or undefined when the business is closed that day. */
export function businessSpan(d: LocalDate, timeZone: string): { start: Date; end: Date } | undefined {
  const hours = openingHours(d);
  if (!hours) return undefined;
  return {
    start: zonedTime({ ...d, hour: hours[0] }, timeZone),
    // zonedTime normalises hour 24 to the next midnight, should a day ever open until then.
    end: zonedTime({ ...d, hour: hours[1] + 1 }, timeZone),
  };
}

function* daysFrom(d: LocalDate): Generator<LocalDate> {
  for (let i = 0; i < MAX_DAYS_AHEAD; i++) yield addDays(d, i);
  throw new Error(`no business day within ${MAX_DAYS_AHEAD} days of ${d.year}-${d.month}-${d.day}`);
}

/** The end of the first business day after the local day of `from`. */
function nextBusinessDayEnd(from: Date, timeZone: string): Date {
  for (const day of daysFrom(addDays(localParts(from, timeZone), 1))) {
    const span = businessSpan(day, timeZone);
    if (span) return span.end;
  }
  throw new Error('unreachable');
}

/** The instant at which `hours` of opening time have passed since `from`. */
function afterBusinessHours(from: Date, hours: number, timeZone: string): Date {
  let left = hours * 3_600_000;
  for (const day of daysFrom(localParts(from, timeZone))) {
    const span = businessSpan(day, timeZone);
    if (!span) continue;
    const start = Math.max(span.start.getTime(), from.getTime());
    const open = span.end.getTime() - start;
    if (open <= 0) continue;
    if (left <= open) return new Date(start + left);
    left -= open;
  }
  throw new Error('unreachable');
}

/** When a request proposed at `proposedAt` expires under `policy`. */
export function expiryAfter(proposedAt: Date, policy: ApprovalExpiry, timeZone: string): Date {
  switch (policy.kind) {
    case 'next_business_day_end':
      return nextBusinessDayEnd(proposedAt, timeZone);
    case 'business_hours':
      return afterBusinessHours(proposedAt, policy.hours, timeZone);
    case 'minutes':
      return new Date(proposedAt.getTime() + policy.minutes * 60_000);
  }
}
