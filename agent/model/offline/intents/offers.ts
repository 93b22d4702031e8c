import type { PlanContext } from '../../../plan-context.js';
import type { Offer } from '../conversation.js';
import type { Analysis } from '../analysis/analyze.js';
import { addressAnswer, ticketSubject } from '../analysis/entities.js';
import { capitalize, clip, normalize, ordinalOf } from '../analysis/text.js';
import { formatWhen, isoInZone, localOf } from '../analysis/when.js';
import { denyReply } from '../replies/templates.js';
import { answerChangeOffer, changeLookup } from './booking-change.js';
import { hasContactChange } from './contact-change.js';
import { propose, say, type PlannedTurn } from './turn.js';

/** The customer answering an offer of ours: yes to a proposal or a ticket, or picking one of the alternatives. */
export function handleOffer(offer: Offer, a: Analysis, ctx: PlanContext): PlannedTurn | undefined {
  const t = normalize(a.text);
  if (a.cues.deny) return say(denyReply());
  if (!ctx.customer) return undefined;
  const customerId = ctx.customer.id;
  switch (offer.kind) {
    case 'ticket': {
      if (!a.cues.affirm) return undefined;
      const args = {
        customer_id: customerId,
        subject: ticketSubject('Question', offer.question),
        description: clip(offer.question, 4000),
        priority: 'low',
        category: 'general',
      };
      return propose([{ name: 'create_ticket', args }], []);
    }
    case 'propose': {
      if (!a.cues.affirm) return undefined;
      const args = 'customer_id' in offer.args ? { ...offer.args, customer_id: customerId } : offer.args;
      // Submitting again what expired: a visit time that has passed since can't be asked for as it was.
      const start = args.start_time ?? args.new_start_time;
      if (typeof start === 'string' && new Date(start).getTime() <= new Date(ctx.now).getTime()) {
        const passed =
          `${formatWhen(start, ctx.timeZone)} has already passed, ` + "so I can't submit that request again as it was.";
        // A move: see the booking again first, then ask for its new time.
        if (offer.tool === 'reschedule_booking' && typeof args.booking_id === 'string')
          return {
            content: '',
            calls: [changeLookup(customerId)],
            meta: { change: { kind: 'reschedule', booking_id: args.booking_id, lead: passed } },
          };
        return say(`${passed} Which day and time would you like instead?`);
      }
      return propose([{ name: offer.tool, args }], []);
    }
    case 'booking_change':
      return answerChangeOffer(offer, a, ctx, customerId);
    case 'note_text': {
      // Only an answer that is a statement is the note; a question or another request is planned as usual.
      const other = a.bookingWanted || a.rescheduleWanted || a.bookingChange || hasContactChange(a.text, a.cues);
      if (other || a.cues.question || a.infoQuestion || a.problem || a.cues.withdraw || a.cues.lookup) return undefined;
      const note = capitalize(a.text.trim().replace(/[.!\s]+$/, ''));
      if (note.length < 3) return undefined;
      return propose(
        [{ name: 'update_customer', args: { customer_id: customerId, changes: { notes: clip(note, 2000) } } }],
        [],
      );
    }
    case 'site': {
      // Only an answer that gives the whole address is the visit's; a question or another request is planned as usual.
      if (a.cues.question || a.infoQuestion || a.cues.withdraw || a.bookingChange) return undefined;
      const address = addressAnswer(a.text);
      if (!address?.ok) return undefined;
      const said = a.text.trim().replace(/\s+/g, ' ');
      const notes = clip([offer.args.notes, `Visit at: ${said}`].filter(Boolean).join(' '), 1000);
      return propose([{ name: 'book_slot', args: { customer_id: customerId, ...offer.args, notes } }], []);
    }
    case 'which_request': {
      const pick = pickRequest(offer.options, a, ctx);
      return pick ? propose([{ name: 'book_slot', args: { ...pick.args, customer_id: customerId } }], []) : undefined;
    }
    case 'alternatives': {
      let idx = ordinalOf(a.text) ?? -1;
      // "the later one", "the earlier one": of the options as listed, in time order.
      const byTime = offer.options
        .map((o, i) => ({ i, at: Date.parse(o.start_time) }))
        .sort((x, y) => x.at - y.at)
        .map((o) => o.i);
      if (idx < 0 && /\b(?:the )?(?:later|latter) (?:one|day|date)?\b|^\s*(?:the )?latter\b/i.test(a.text))
        idx = byTime.at(-1) ?? -1;
      if (idx < 0 && /\b(?:the )?(?:earlier|former|sooner) (?:one|day|date)?\b|^\s*(?:the )?former\b/i.test(a.text))
        idx = byTime[0] ?? -1;
      if (idx < 0 && a.when.time) {
        idx = offer.options.findIndex((o) => {
          const l = localOf(o.start_time, ctx.timeZone);
          const sameDay = !a.when.date || (a.when.date.day === l.day && a.when.date.month === l.month);
          return sameDay && l.hour === a.when.time!.hour && l.minute === a.when.time!.minute;
        });
      }
      // "monday then": the one option on the day they name (a bare weekday: the option on that weekday).
      if (idx < 0 && a.when.date && !a.when.time) {
        const d = a.when.date;
        const weekday = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
        const onDay = offer.options.flatMap((o, i) => {
          const l = localOf(o.start_time, ctx.timeZone);
          const same = a.when.weekdayOnly
            ? l.weekday === weekday
            : l.year === d.year && l.month === d.month && l.day === d.day;
          return same ? [i] : [];
        });
        if (onDay.length === 1) idx = onDay[0]!;
      }
      if (idx < 0 && a.cues.affirm && offer.options.length === 1) idx = 0;
      const pick = offer.options[idx];
      if (!pick) return undefined;
      const start = isoInZone(new Date(pick.start_time), ctx.timeZone);
      if (offer.booking_id) {
        const move = { customer_id: customerId, booking_id: offer.booking_id, new_start_time: start };
        return propose([{ name: 'reschedule_booking', args: move }], []);
      }
      const args: Record<string, unknown> = {
        customer_id: customerId,
        service_id: offer.service_id,
        start_time: start,
        ...(offer.notes ? { notes: offer.notes } : {}),
      };
      return propose([{ name: 'book_slot', args }], []);
    }
  }
}

type RequestOption = Extract<Offer, { kind: 'which_request' }>['options'][number];

/** The request an answer to "which one?" picks: by position, by the service it names, or by the day it was for. */
function pickRequest(options: RequestOption[], a: Analysis, ctx: PlanContext): RequestOption | undefined {
  const byPosition = options[ordinalOf(a.text) ?? -1];
  if (byPosition) return byPosition;
  const byService = options.filter((o) => a.services.matches.some((s) => s.id === o.service_id));
  if (byService.length === 1) return byService[0];
  const d = a.when.date;
  if (!d) return undefined;
  const onDay = options.filter((o) => {
    const l = localOf(o.requested, ctx.timeZone);
    return l.year === d.year && l.month === d.month && l.day === d.day;
  });
  return onDay.length === 1 ? onDay[0] : undefined;
}
