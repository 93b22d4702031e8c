import { formatInZone } from '../core/time.js';
import { matchServices } from './model/offline/analysis/services.js';
import type { PlanContext } from './plan-context.js';
import { BUSINESS } from '../schema/business/profile.js';
import { CHANGE_POLICY } from '../schema/business/change-policy.js';

/** The change policy in the help centre's words: "moving a visit within 24 hours … costs $25; …; free otherwise". */
function changeFeeRules(): string {
  const rules = [...CHANGE_POLICY.reschedule, ...CHANGE_POLICY.cancel].map((r) => r.label);
  return `${rules.join('; ')}; earlier changes are free`;
}

/** Help-centre topics whose questions are answered with the service list (ids, durations, prices). */
const SERVICE_TOPICS: ReadonlySet<string> = new Set(['pricing', 'booking']);
const BOOKING_WORDS = /\b(book|booking|schedule|appointment|visit|price|prices|cost|costs|how much|quote|charge)\b/i;

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

const money = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\.00$/, '')}`;

/**
 * The system prompt for a real model: short, because every plan call pays for it. Rules that only
 * matter in some turns (pending requests, the service list, changes for an unlinked user, who has
 * no write tools) appear only in those turns. The gate does not depend on anything said here.
 */
export function systemPrompt(ctx: PlanContext, opts: { customerTexts?: readonly string[] } = {}): string {
  const c = ctx.customer;
  const lines = [
    `You are ${BUSINESS.name}'s support assistant (cleaning, repairs, installs) in Slack. ` +
      'Replies: short, warm, plain text.',
    `Now ${formatInZone(ctx.now, ctx.timeZone)} (${ctx.now}), zone ${ctx.timeZone}: tell times in it; ` +
      'tool times are ISO 8601 with its offset.',
    c
      ? `Customer: ${c.name}, email ${c.email ?? 'none'}, phone ${c.phone ?? 'none'}. ` +
        `Use customer_id "${c.id}" in every tool call.`
      : 'This Slack user is not linked to a customer: answer from the help centre only; ' +
        'for any change, a manager has to link their Slack account first.',
    "- Answer from the articles below; quote prices and policies exactly; if they don't cover it, say so" +
      (c ? ' and offer a ticket.' : '.'),
  ];
  if (c) {
    lines.push(
      '- To change something (book, move, cancel, contact details, email, ticket), call its tool with exact ' +
        'arguments. A manager approves every change: never say it is done before an [approval update] says so; ' +
        'if rejected or edited, say exactly what happened.',
      '- Missing or ambiguous detail (service, day, time): ask one short question, never guess.',
      '- Existing visit: call lookup_customer and pick from its upcoming_bookings by service or day; if several ' +
        'fit, ask which one (service, day, time of each). Then reschedule_booking or cancel_booking. Never call ' +
        'book_slot to move a booking: it makes a second one. book_slot is for a new visit' +
        (ctx.pending.length ? ' or a pending booking request.' : '.'),
      `- Fees: ${changeFeeRules()}. When you propose a move or cancellation, state the fee (or that it is free); ` +
        "once done, give the fee from the tool's result.",
      "- Emails go only to the customer's address on file.",
    );
  }
  if (ctx.pending.length) {
    lines.push(
      '- To change a pending request, call the tool again with the new arguments (it replaces the old one); ' +
        'if the customer takes it back, call withdraw_request.',
      'Pending (waiting for a manager):',
      ...ctx.pending.map((p) => `- ${p.approval_id}: ${p.tool} ${JSON.stringify(p.args)}`),
    );
  }
  lines.push('Articles:');
  lines.push(...(ctx.retrieved.length ? ctx.retrieved.map((a) => `- ${a.title}: ${a.snippet}`) : ['- none found']));
  if (needsServices(ctx, opts.customerTexts ?? [])) {
    lines.push(
      'Services (id: name, minutes, price):',
      ...ctx.services.map((s) => `- ${s.id}: ${s.name}, ${s.duration_minutes}, ${money(s.price_cents)}`),
    );
  }
  if (ctx.summary) lines.push('Earlier:', ctx.summary);
  return lines.join('\n');
}
