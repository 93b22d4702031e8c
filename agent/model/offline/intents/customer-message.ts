import { answerFromKb, answerFromServices } from '../replies/knowledge.js';
import type { BaseMessage } from '@langchain/core/messages';
import { WITHDRAW_TOOL, type PlanContext } from '../../../plan-context.js';
import type { Offer } from '../conversation.js';
import { analyze, type Analysis } from '../analysis/analyze.js';
import { namesOwnBooking } from '../analysis/booking-change.js';
import { otherPerson, theirVisit } from '../analysis/entities.js';
import { bookingBesideProblem, bookingSegments, segments } from '../analysis/segments.js';
import type { Service } from '../analysis/services.js';
import { joinList, normalize } from '../analysis/text.js';
import { combine, formatWhen } from '../analysis/when.js';
import { describeCall, listServices, otherAccountReply, UNLINKED } from '../replies/templates.js';
import { jobNoServiceCovers } from '../analysis/service-scope.js';
import { answerOrChat, helpCentreAnswersFee, sideAnswer } from './answer.js';
import { planBooking, planRequestChange, planReschedule } from './booking.js';
import { changeLookup } from './booking-change.js';
import { hasContactChange, planUpdate } from './contact-change.js';
import { coverageAnswer } from './coverage-question.js';
import { planEmail } from './email.js';
import { followOnService } from './follow-on.js';
import { planLookup } from './lookup.js';
import { changeLandedField } from '../analysis/own-record.js';
import { planTicket } from './ticket.js';
import { propose, say, type PlannedCall, type PlannedTurn } from './turn.js';
import { planWithdrawal } from './withdrawal.js';

/** An unlinked Slack user: answers only; anything that needs a customer record is explained instead. */
export function planForUnlinked(a: Analysis, ctx: PlanContext): PlannedTurn {
  const wantsChange =
    a.bookingWanted ||
    a.bookingChange !== undefined ||
    a.rescheduleWanted ||
    a.problem ||
    a.cues.withdraw ||
    a.cues.cancelBooking ||
    a.cues.sendEmail ||
    a.cues.lookup !== undefined ||
    hasContactChange(a.text, a.cues);
  if (wantsChange) return say(UNLINKED);
  return answerOrChat(a, ctx);
}

/** "can you guys paint…", "could someone come and…", "i need someone to…": a job asked of us. */
const ASKS_US_TO = new RegExp(
  String.raw`\b(?:can|could|would|will) (?:you|u|y'?all|someone|somebody)(?: guys| folks| people)?\b|` +
    String.raw`\bneed (?:someone|somebody) to\b`,
);

const STATUS_QUESTION = new RegExp(
  [
    String.raw`\b(?:is it|is that|is this|has it been|have you|did it|was it|it's|it is|its|that's|thats|am i) ` +
      String.raw`(?:\w+ )?` +
      String.raw`(?:confirmed|approved|booked|done|sorted|through|gone through)\b`,
    String.raw`\bany (?:news|update)\b`,
    String.raw`\bstatus of\b`,
  ].join('|'),
);

/** Bookings asked for in segments of their own, each complete and within the booking rules. */
function bookingsInSegments(
  messages: BaseMessage[],
  a: Analysis,
  ctx: PlanContext,
): { service_id: string; start_time: string }[] {
  const parts = segments(a.text);
  // "… for a handyman hour? just checking, not booking yet": said of the whole message, whichever part asks.
  if (parts.length < 2 || a.cues.justAsking) return [];
  const out: { service_id: string; start_time: string }[] = [];
  for (const seg of parts) {
    const sa = analyze(messages, ctx, seg);
    if (!sa.bookingWanted || sa.rescheduleWanted || sa.bookingChange || sa.problem || sa.cues.withdraw) continue;
    if (sa.services.matches.length !== 1 || !sa.when.date || !sa.when.time) continue;
    const r = planBooking(messages, sa, ctx);
    if (r.args) out.push(r.args);
  }
  return out;
}

type ChangeAsked = NonNullable<NonNullable<PlannedTurn['meta']>['change']>;

/**
 * The move or cancellation of a booking they have that the message asks for, and the words it is read
 * from when other parts ask for other things. A complaint beside "can we shift it to thursday same time"
 * hides the move read over the whole message, so a segment that reports nothing is read alone; and
 * "cancel the fan saturday. what i want is the tv on the 19th" picks the booking from its own segment
 * once the other one is a booking of its own (the 19th is not the day of the booking to cancel).
 */
function changeAsked(
  messages: BaseMessage[],
  a: Analysis,
  ctx: PlanContext,
  splitOut: boolean,
): ChangeAsked | undefined {
  const parts = segments(a.text);
  if (a.bookingChange && (!splitOut || parts.length < 2)) return { kind: a.bookingChange };
  if (!a.bookingChange && (!a.problem || parts.length < 2)) return undefined;
  const read = parts.map((seg) => ({ seg, sa: analyze(messages, ctx, seg) }));
  if (a.bookingChange) {
    const own = read.filter((r) => r.sa.bookingChange === a.bookingChange && !r.sa.bookingWanted);
    return own.length === 1 ? { kind: a.bookingChange, text: own[0]!.seg } : { kind: a.bookingChange };
  }
  const calm = read.filter((r) => !r.sa.problem);
  const kind = calm.find((r) => r.sa.bookingChange)?.sa.bookingChange;
  return kind ? { kind, text: calm.map((r) => r.seg).join(' ') } : undefined;
}

/** Said to a message that asks for nothing: what it would have proposed becomes an offer. */
function heardOnly(calls: PlannedCall[], ticket: PlannedCall | undefined, answer?: string): PlannedTurn {
  const kept = calls.filter((c) => c.name === WITHDRAW_TOOL);
  const offer: Offer | undefined = ticket ? { kind: 'propose', tool: ticket.name, args: ticket.args } : undefined;
  const heard = ticket
    ? "Thanks for telling us, and I'm sorry about that. As you asked, I haven't opened anything. " +
      'If you change your mind, just say so and I will pass it to our team as a support ticket.'
    : "Understood: as you asked, I haven't requested any change. Is there anything else I can help with?";
  const content = answer
    ? `${answer.replace(/ (?:Would you like me to book|Is there anything else)[\s\S]*$/, '')}\n\n${heard}`
    : heard;
  const meta = offer ? { offer } : undefined;
  return kept.length ? { ...propose(kept, [content]), ...(meta ? { meta } : {}) } : say(content, meta);
}

/** When they could have a visit: "when could someone do it?", "how soon can you get someone out?". */
const WHEN_COULD_YOU = new RegExp(
  String.raw`\b(?:when|what day|how soon|how quickly)\b[^.!?]*\b(?:could|can|would|will)\s+` +
    String.raw`(?:someone|somebody|you|u|ya|a tech\w*|your (?:guys|team|people|crew))\b[^.!?]*` +
    String.raw`\b(?:do|come|fit|get|sort|install|fix|put|pop|be out)\b|` +
    String.raw`\bwhen(?:'s| is) (?:the )?(?:earliest|next (?:free|available|opening|slot))\b`,
);

/** A linked customer's message: the calls it asks for and what to say alongside. */
export function planForCustomer(
  messages: BaseMessage[],
  a: Analysis,
  ctx: PlanContext,
  customer: NonNullable<PlanContext['customer']>,
): PlannedTurn {
  const calls: PlannedCall[] = [];
  const notes: string[] = [];
  let offer: Offer | undefined;
  const t = normalize(a.text);
  const pendingBook = ctx.pending.filter((p) => p.tool === 'book_slot');

  // --- "is it confirmed now?" while a request waits: only an approval update says it is.
  if (
    ctx.pending.length &&
    STATUS_QUESTION.test(t) &&
    (a.cues.question || a.infoQuestion) &&
    !a.bookingWanted &&
    !a.rescheduleWanted &&
    !a.cues.withdraw &&
    !a.problem
  ) {
    const what = joinList(ctx.pending.map((p) => describeCall({ name: p.tool, args: p.args }, ctx)));
    return say(
      `Not yet: your request to ${what} is still waiting for a manager's approval, so nothing has changed so far. ` +
        "I'll let you know here as soon as a manager decides.",
    );
  }

  // --- moving or cancelling a booking they have: see the bookings first (intents/booking-change)
  let change = changeAsked(messages, a, ctx, false);
  // "how much do i lose if i cancel tomorrow's cleaning": what that booking's change would cost, from its own start
  // and price, so the booking is looked up; nothing is proposed.
  if (
    !change &&
    a.feeQuestion &&
    a.feeQuestion !== 'any' &&
    !a.bookingWanted &&
    !a.problem &&
    !a.cues.lookup &&
    !a.cues.sendEmail &&
    namesOwnBooking(a.text, ctx.services) &&
    !helpCentreAnswersFee(a, ctx)
  )
    change = { kind: a.feeQuestion, feeOnly: true };
  if (change) calls.push(changeLookup(customer.id));

  // --- bookings (new or changed)
  let booking: { service: Service | undefined; serviceId: string; start: string; status: 'requested' } | undefined;
  // Two bookings in one message ("a TV mount Tuesday at 1 and a ceiling fan Wednesday at 3"): one each. Read
  // per segment: over the whole message the better-named service can hide the other.
  const several = a.bookingWanted ? bookingSegments(a.text, ctx) : [];
  if (several.length > 1 && new Set(several.map((b) => b.service.id)).size === several.length) {
    for (const b of several) {
      // Each segment through the booking rules of its own (closed days, the booking window, past times).
      const sa = analyze(messages, ctx, b.text);
      // A segment without a day (or, following on from the visit before it, without a time) takes the one read.
      const when = { ...sa.when, date: sa.when.date ?? b.when.date, time: sa.when.time ?? b.when.time };
      const r = planBooking(messages, sa.when.date && sa.when.time ? sa : { ...sa, when }, ctx);
      if (r.note) notes.push(r.note);
      if (!r.args) continue;
      calls.push({ name: 'book_slot', args: { customer_id: customer.id, ...r.args } });
      booking ??= { service: b.service, serviceId: b.service.id, start: r.args.start_time, status: 'requested' };
    }
  } else if (a.rescheduleWanted || a.bookingWanted) {
    // "the fan you put in wobbles. separate thing: can i get the windows done thursday at 3": the booking's own words.
    const beside = a.problem && !a.rescheduleWanted ? bookingBesideProblem(a.text, ctx) : undefined;
    const r = a.rescheduleWanted
      ? (planRequestChange(messages, a, ctx) ?? planReschedule(a, ctx, a.base!))
      : planBooking(messages, beside ? analyze(messages, ctx, beside) : a, ctx);
    if (r.args) {
      const args = { customer_id: customer.id, ...r.args };
      calls.push({ name: 'book_slot', args });
      booking = {
        service: ctx.services.find((s) => s.id === args.service_id),
        serviceId: args.service_id,
        start: args.start_time,
        status: 'requested',
      };
    }
    if (r.note) notes.push(r.note);
    if (r.offer) offer = r.offer;
  } else {
    // "Cancel my window cleaning, and book me a deep clean Friday at 10": the change hid the
    // request read over the whole message, so each segment that asks for a booking is read alone.
    const split = bookingsInSegments(messages, a, ctx);
    for (const r of split) {
      calls.push({ name: 'book_slot', args: { customer_id: customer.id, ...r } });
      booking ??= { service: undefined, serviceId: r.service_id, start: r.start_time, status: 'requested' };
    }
    if (split.length && change) change = changeAsked(messages, a, ctx, true);
  }
  // "move it to friday at noon and add a handyman hour straight after": the visit starts when the moved one
  // ends, which the lookup tells (the booking's service), so it is booked once the move is known.
  const after = change?.kind === 'reschedule' ? followOnService(a.text, ctx) : undefined;
  if (change && after && !calls.some((c) => c.name === 'book_slot' && c.args.service_id === after.id))
    change = { ...change, after: after.id, ...(after.saidTime ? { afterTime: after.saidTime } : {}) };

  // --- withdrawals (a cancellation of a booking replaces a pending change of it by itself)
  const withdrawal =
    change?.kind === 'cancel' ? { withdrawing: false, calls: [] } : planWithdrawal(a, ctx, booking !== undefined);
  calls.unshift(...withdrawal.calls);
  if (withdrawal.note) notes.push(withdrawal.note);
  const withdrawing = withdrawal.withdrawing;
  const nothingToWithdraw = withdrawing && !ctx.pending.length && !a.cues.cancelBooking;

  // --- contact details and preferences
  // "did the email change go thru? should be x@y now" asks whether it reached the record: the lookup answers,
  // and what follows it proposes the value when it did not (intents/change-landed).
  const landed = a.cues.lookup === 'contact' && changeLandedField(t) !== undefined;
  const update: ReturnType<typeof planUpdate> = landed ? { notes: [] } : planUpdate(a, customer, booking !== undefined);
  // A part of the address or a fact for the notes builds on the record: the update waits for its lookup.
  const record = update.fromRecord ? { changes: update.changes ?? {}, ...update.fromRecord } : undefined;
  if (record) {
    if (!calls.some((c) => c.name === 'lookup_customer')) calls.push(changeLookup(customer.id));
  } else if (update.changes)
    calls.push({ name: 'update_customer', args: { customer_id: customer.id, changes: update.changes } });
  notes.push(...update.notes);
  if (update.offer) offer = update.offer;

  // --- problems, complaints, explicit ticket requests, cancellations of booked visits
  const ticket = planTicket(a, customer, pendingBook.length > 0);
  const covered = ticket.call && !calls.length && !notes.length ? coverageAnswer(a, ctx, ticket.call) : undefined;
  if (covered) return say(covered.text, { offer: covered.offer });
  if (ticket.call) calls.push(ticket.call);
  if (ticket.note) notes.push(ticket.note);

  // --- email
  let emailBooking = false;
  if (a.cues.sendEmail) {
    // Only a new email address waits for approval; any other change leaves the one on file to send to.
    const e = planEmail(messages, a, ctx, customer, booking, update.changes?.email !== undefined);
    if (e.args) calls.push({ name: 'send_email', args: e.args });
    if (e.note) notes.push(e.note);
    if (e.lookup && !calls.length) {
      calls.push({ name: 'lookup_customer', args: { customer_id: customer.id } });
      emailBooking = true;
    }
  }

  // --- account questions (only on their own)
  const lookup = !calls.length && !notes.length ? planLookup(a, customer) : undefined;
  if (lookup) calls.push(lookup);

  // --- an availability question with everything needed: offer to request it
  if (
    !calls.length &&
    !notes.length &&
    a.infoQuestion &&
    a.services.matches.length === 1 &&
    a.when.date &&
    a.when.time &&
    !a.when.anyDay &&
    !a.problem &&
    // "my tv mounting is thursday at 2pm, if i push it … does that cost me": a question about a change's fee.
    !a.feeQuestion
  ) {
    const start = combine(a.when.date, a.when.time, {
      weekdayOnly: a.when.weekdayOnly,
      nowIso: ctx.now,
      timeZone: ctx.timeZone,
    });
    if (!start.inPast) {
      const s = a.services.matches[0]!;
      // "how much wud a deep clean come to if i had it sat 12th at 9": the price asked, then the offer; "is it more
      // expensive because its the weekend?" asks what the help centre says beside it.
      const price = answerFromServices(a.text, ctx)?.replace(/ Would you like[\s\S]*$/, '');
      // The help centre's answer leads with the catalogue's price when its quote lacks it.
      const facts =
        (price && answerFromKb(a.text, ctx)?.text.replace(/ (?:Would you like|Is there anything)[\s\S]*$/, '')) ||
        price;
      return say(
        `${facts ? `${facts} ` : ''}I can't see live availability from here, but I can request ${s.name} on ` +
          `${formatWhen(start.iso, ctx.timeZone)} for you and our team will confirm it. Would you like me to do that?`,
        {
          offer: {
            kind: 'propose',
            tool: 'book_slot',
            args: { customer_id: customer.id, service_id: s.id, start_time: start.iso },
          },
        },
      );
    }
  }

  // --- "got a ceiling fan in a box … when could someone do it?": when they could have it, no day said yet
  if (
    !calls.length &&
    !notes.length &&
    a.infoQuestion &&
    a.services.matches.length === 1 &&
    !a.when.date &&
    !a.when.time &&
    !a.problem &&
    !a.feeQuestion &&
    WHEN_COULD_YOU.test(t)
  ) {
    const s = a.services.matches[0]!;
    // Our booking question: the day and time the next message gives are read as its answer (analysis/analyze).
    return say(
      `I'd be happy to book ${s.name} for you. I can't see live availability from here, so which day and time ` +
        'would suit you? Our team will confirm the time.',
    );
  }

  // --- "move it to Thursday" with nothing to move
  if (
    !calls.length &&
    !notes.length &&
    !a.base &&
    a.cues.reschedule &&
    (a.when.date || a.when.time) &&
    !a.infoQuestion &&
    !a.problem
  ) {
    return say(
      "I don't see a booking in our conversation to change. " +
        'Which service would you like, and on which day and at what time?',
    );
  }

  // "Just venting, no need to do anything": a heads-up that asks for nothing. Nothing is proposed; a ticket is offered.
  // "Not trying to file a complaint, I just wanted to know if…": the question still gets its answer.
  if (a.cues.noAction && calls.some((c) => c.name !== WITHDRAW_TOOL))
    return heardOnly(calls, ticket.call, a.infoQuestion ? answerFromKb(a.text, ctx)?.text : undefined);

  // "Change Ann Lee's email", "book for my neighbour": the tools act on this customer's record
  // only, so such a request must not become a change (or a lookup) of their own.
  // A value refused as someone else's ("my mom's email changed to…") is the same request: say so, not
  // the narrower "emails only go to your address".
  const other = otherPerson(a.text, customer, ctx.services);
  // Asking for the missing time of their visit would be acting for them too.
  const theirs = notes.length > 0 && theirVisit(a.text);
  if (other && (calls.some((c) => c.name !== WITHDRAW_TOOL) || update.thirdParty || theirs))
    return say(otherAccountReply(other));

  if (calls.length) {
    // A question asked alongside the request still gets its answer.
    const answer = a.cues.lookup ? '' : sideAnswer(a.text, ctx);
    const turn = propose(calls, answer ? [answer, ...notes] : notes, a.cues.injection, offer);
    return change || record || emailBooking
      ? {
          ...turn,
          meta: {
            ...turn.meta,
            ...(change ? { change } : {}),
            ...(record ? { record } : {}),
            ...(emailBooking ? { emailBooking: true as const } : {}),
          },
        }
      : turn;
  }
  if (notes.length) {
    // A clarifying question still answers what the customer asked alongside ("…Is that possible?").
    const side = sideAnswer(a.text, ctx);
    // A note that already quotes the help centre's limit (a booking asked about instead) says it once.
    const quote = /says: ("[^"]+")$/.exec(side)?.[1];
    const said = quote !== undefined && notes.some((n) => n.includes(quote));
    return say([said ? '' : side, ...notes].filter(Boolean).join('\n\n'), offer ? { offer } : undefined);
  }
  // "cancel it" with nothing in the conversation it could be: a booking they have, perhaps. Asked, never guessed.
  if (nothingToWithdraw && !a.problem && /\bcancel/.test(t)) {
    return say(
      "There's no request waiting for approval in our conversation, so I'm not sure what you'd like cancelled. " +
        'Is it one of your upcoming bookings? Tell me which one (the service or the day) and I will ask our team ' +
        'to cancel it.',
    );
  }
  if (nothingToWithdraw && !a.problem) {
    return say(
      "There's nothing waiting for approval right now, so there is nothing to withdraw and nothing will change. " +
        'Is there anything else I can help with?',
    );
  }
  // "can you guys paint our hallway?": a job none of our services does, asked of us: said so, and ours offered.
  const job =
    !a.services.matches.length && !a.problem && ASKS_US_TO.test(normalize(a.text))
      ? jobNoServiceCovers(a.text, ctx.services)
      : undefined;
  if (job)
    return say(
      `Sorry, we don't offer a service to ${job.replace(/\b(?:our|my)\b/g, 'your')}. What we can book is ` +
        `${listServices(ctx.services)}: which would you like, and on which day and at what time?`,
    );
  return answerOrChat(a, ctx);
}
