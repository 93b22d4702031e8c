import { isoInZone, localParts } from '../core/time.js';
import { changeCues } from './model/offline/analysis/booking-change.js';
import { detectCues } from './model/offline/analysis/cues.js';
import { matchServices } from './model/offline/analysis/services.js';
import type { PlanContext } from './plan-context.js';
import { BUSINESS } from '../schema/business/profile.js';
import { expansions, tokens } from '../schema/knowledge/thesaurus.js';
import { CHANGE_POLICY } from '../schema/business/change-policy.js';

/** The change policy in the help centre's words: "moving a visit within 24 hours … costs $25; …; free otherwise". */
function changeFeeRules(): string {
  const rules = [...CHANGE_POLICY.reschedule, ...CHANGE_POLICY.cancel].map((r) => r.label);
  return `${rules.join('; ')}; earlier changes are free`;
}

/** Help-centre topics whose questions are answered with the service list (ids, durations, prices). */
const SERVICE_TOPICS: ReadonlySet<string> = new Set(['pricing', 'booking']);
/** Help-centre topics whose questions are about changing a booking: the move and cancel rules apply. */
const CHANGE_TOPICS: ReadonlySet<string> = new Set(['cancellation-and-rescheduling']);
const BOOKING_WORDS = /\b(book|booking|schedule|appointment|visit|price|prices|cost|costs|how much|quote|charge)\b/i;

/** What the plan call answers besides the customer's words. */
export interface PromptOptions {
  /** The customer's messages in the window (approval updates left out). */
  customerTexts?: readonly string[];
  /**
   * The newest input is a manager's decision (an approval update), not a customer message: the
   * articles and the service list found for the earlier question are not needed to report it.
   */
  afterDecision?: boolean;
}

/**
 * Does this turn need the service list? Only booking and price talk does, and the list is a fifth
 * of the prompt: it is shown when the help centre's best hits are about prices or booking, a booking
 * request waits, or a customer message of the window names a service or a booking or price word.
 */
export function needsServices(ctx: PlanContext, customerTexts: readonly string[]): boolean {
  if (ctx.retrieved.slice(0, 2).some((a) => SERVICE_TOPICS.has(a.topic))) return true;
  if (ctx.pending.some((p) => typeof p.args.service_id === 'string')) return true;
  return customerTexts.some((t) => {
    if (BOOKING_WORDS.test(t)) return true;
    const m = matchServices(t, ctx.services);
    return m.matches.length > 0 || m.candidates.length > 0;
  });
}

/** Words (or what the thesaurus reads them as) that are about moving or cancelling something. */
const CHANGE_WORD = /^(?:cancel|resched|postpon|move$)/;

/**
 * Does this turn concern moving or cancelling a booking, so that it needs reschedule_booking and
 * cancel_booking and their rules (look it up first, never book_slot, the fees)? Read broadly, since
 * a miss costs the model those tools and a false alarm only tokens: the best hits are about
 * changes, a change waits, or a customer message of the window uses a change word (its own or by
 * the thesaurus: "call off", "push") or reads as a change the way the offline planner reads one.
 */
export function needsChangeRules(ctx: PlanContext, customerTexts: readonly string[]): boolean {
  if (ctx.retrieved.slice(0, 3).some((a) => CHANGE_TOPICS.has(a.topic))) return true;
  if (ctx.pending.some((p) => typeof p.args.booking_id === 'string')) return true;
  return customerTexts.some((t) => {
    const words = [...tokens(t), ...expansions(t).flatMap((e) => e.split(' '))];
    if (words.some((w) => CHANGE_WORD.test(w))) return true;
    const change = changeCues(t);
    const cues = detectCues(t);
    return change.move || change.cancel || change.cancelPronoun || cues.reschedule || cues.cancelBooking;
  });
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Through core/time's cached formatters: a new Intl.DateTimeFormat per prompt was a hot spot. */
const weekdayIn = (at: string, timeZone: string) => WEEKDAYS[localParts(new Date(at), timeZone).weekday]!;

/**
 * Characters of reference text (articles and the service list) one plan call carries. Five whole
 * snippets can be 2,600 characters, most of a call; past this budget the lower hits keep their
 * leading whole sentences, or only their title: the model can search for more.
 */
export const REFERENCE_CHARS = 1800;

/** Whole sentences of `text` within `room` characters ("9:00 a.m. to" is not a sentence end). */
function leadingSentences(text: string, room: number): string {
  if (text.length <= room) return text;
  let out = '';
  for (const sentence of text.split(/(?<=[.!?])\s+(?=[A-Z0-9"'])/)) {
    const next = out ? `${out} ${sentence}` : sentence;
    if (next.length > room) break;
    out = next;
  }
  return out;
}

/** The hits best first: the best one whole, the others within what is left of `room`. */
export function articleLines(retrieved: PlanContext['retrieved'], room: number): string[] {
  if (!retrieved.length) return ['- none found'];
  let left = room;
  return retrieved.map((a, i) => {
    const text = i === 0 ? a.snippet : leadingSentences(a.snippet, left);
    left = Math.max(0, left - text.length);
    return text ? `- ${a.title}: ${text}` : `- ${a.title} (search for it)`;
  });
}

const money = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\.00$/, '')}`;

/**
 * The system prompt for a real model: short, because every plan call pays for it. Rules that only
 * matter in some turns (pending requests, the service list, moving and cancelling, the articles)
 * appear only in those turns (the plan step declares the booking-change tools in the same turns);
 * an unlinked user, who has no write tools, gets no change rules. The customer's id is not in it:
 * the plan step fills it in every call. The gate depends on nothing here.
 */
export function systemPrompt(ctx: PlanContext, opts: PromptOptions = {}): string {
  const c = ctx.customer;
  const texts = opts.customerTexts ?? [];
  const lines = [
    `You are ${BUSINESS.name}'s support assistant (cleaning, repairs, installs) in Slack. ` +
      'Replies: short, warm, plain text.',
    // The local ISO time gives the year, the weekday's date and the offset tool times take, in one.
    `Now ${isoInZone(new Date(ctx.now), ctx.timeZone)} (${weekdayIn(ctx.now, ctx.timeZone)}, ${ctx.timeZone}): ` +
      'tell times in this zone; tool times are ISO 8601 like this.',
    c
      ? `Customer: ${c.name}, email ${c.email ?? 'none'}.`
      : 'This Slack user is not linked to a customer: answer from the help centre only; ' +
        'for any change, a manager has to link their Slack account first.',
  ];
  if (!opts.afterDecision) {
    lines.push(
      "- Answer from the articles below; quote prices and policies exactly; if they don't cover it, say so" +
        (c ? ' and offer a ticket.' : '.'),
    );
  }
  if (c) {
    lines.push(
      '- To change anything (booking, contact details, email, ticket), call its tool with exact arguments. ' +
        'A manager approves each: say it is done only when an [approval update] says so, and exactly what happened.',
      '- Missing or ambiguous detail (service, day, time): ask one short question, never guess.',
    );
    if (needsChangeRules(ctx, texts)) {
      lines.push(
        '- Existing visit: call lookup_customer and pick from its upcoming_bookings by service or day; if several ' +
          'fit, ask which one (service, day, time of each). Then reschedule_booking or cancel_booking. Never call ' +
          'book_slot to move a booking: it makes a second one.',
        `- Fees: ${changeFeeRules()}. State the fee (or that it is free) when proposing a move or cancellation; ` +
          "once done, give the fee from the tool's result.",
      );
    }
  }
  if (ctx.pending.length) {
    lines.push(
      '- To change a pending request, call the tool again with the new arguments (it replaces the old one); ' +
        'if the customer takes it back, call withdraw_request.',
      'Pending (waiting for a manager):',
      ...ctx.pending.map((p) => {
        const { customer_id: _filledIn, ...args } = p.args;
        return `- ${p.approval_id}: ${p.tool} ${JSON.stringify(args)}`;
      }),
    );
  }
  if (!opts.afterDecision) {
    const services = needsServices(ctx, texts)
      ? ctx.services.map((s) => `${s.id}: ${s.name}, ${s.duration_minutes}, ${money(s.price_cents)}`)
      : [];
    const room = REFERENCE_CHARS - services.reduce((n, s) => n + s.length, 0);
    lines.push('Articles:', ...articleLines(ctx.retrieved, room));
    if (services.length) lines.push('Services (id: name, minutes, price):', ...services);
  }
  if (ctx.summary) lines.push('Earlier:', ctx.summary);
  return lines.join('\n');
}
