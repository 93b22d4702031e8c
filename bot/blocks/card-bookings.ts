import { escapeText } from '../escape.js';
import type { BookingRow, CardContext } from './card-context.js';
import { when } from './format.js';
import { mrkdwn, type Block } from './types.js';

/** More than this and the list is cut with a count: the card is for judging one request. */
export const MAX_LISTED_BOOKINGS = 8;

/** "Deep Cleaning on Tue, Dec 8, 10:00 AM EST (`BKG-1002`)", escaped. */
export const bookingLabel = (b: Pick<BookingRow, 'id' | 'service_name' | 'starts_at'>, timeZone: string) =>
  `${escapeText(b.service_name)} on ${escapeText(when(b.starts_at, timeZone))} (\`${escapeText(b.id)}\`)`;

/** The customer's upcoming visits, so a manager sees at once what a new one would add to. */
export function upcomingBookingsBlock(ctx: CardContext): Block | undefined {
  const list = ctx.upcomingBookings;
  if (!list) return undefined;
  if (!list.length) return { type: 'section', text: mrkdwn('*Upcoming bookings*\n_No upcoming bookings._') };
  const lines = list
    .slice(0, MAX_LISTED_BOOKINGS)
    .map(
      (b) =>
        `• ${escapeText(b.service_name)} · ${escapeText(when(b.starts_at, ctx.timeZone))} · \`${escapeText(b.id)}\``,
    );
  if (list.length > MAX_LISTED_BOOKINGS) lines.push(`…and ${list.length - MAX_LISTED_BOOKINGS} more`);
  return { type: 'section', text: mrkdwn(`*Upcoming bookings*\n${lines.join('\n')}`) };
}
