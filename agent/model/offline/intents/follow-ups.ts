import type { BaseMessage } from '@langchain/core/messages';
import { WITHDRAW_TOOL, type PlanContext } from '../../../plan-context.js';
import {
  callForApproval,
  lastToolRound,
  toolResultsLatestFirst,
  trailingApprovalEvents,
  type Offer,
  type ToolCallLike,
} from '../conversation.js';
import { type UpcomingBooking, upcomingOf } from '../analysis/booking-change.js';
import { detectCues } from '../analysis/cues.js';
import { clip, isRecord } from '../analysis/text.js';
import { formatWhen } from '../analysis/when.js';
import { answerBesideLookup } from '../replies/beside-lookup.js';
import { answerFromKb, noAnswerReply } from '../replies/knowledge.js';
import {
  approvalEventText,
  describeCall,
  executedText,
  explainError,
  lookupText,
  pendingText,
} from '../replies/templates.js';
import { planChangeAfterLookup } from './booking-change.js';
import { changeLandedFollowUp } from './change-landed.js';
import { updateFromRecord } from './contact-change.js';
import { bookingEmailAfterLookup } from './email.js';
import { followOnBooking } from './follow-on.js';
import { say, type PlannedTurn, type RecoverMeta } from './turn.js';

// Follow-ups: what the customer hears after tool results and after a manager's decision.

/** The reply after a round of tool results: what was proposed, refused, done or withdrawn. */
export function continueAfterTools(messages: BaseMessage[], ctx: PlanContext, recover: RecoverMeta): PlannedTurn {
  const round = lastToolRound(messages);
  if (!round) return say('Is there anything else I can help you with?');
  const meta = recover(messages.lastIndexOf(round.ai));
  const parts: string[] = [];
  const pending: ToolCallLike[] = [];
  let pendingAt = -1;
  let offer: Offer | undefined;
  // The calls a booking change proposes once the lookup it started with has come back.
  const changeCalls: PlannedTurn['calls'] = [];
  round.calls.forEach((call, i) => {
    const res = round.results[i];
    if (!res) return;
    const json = res.json;
    if (isRecord(json) && json.status === 'pending_approval') {
      if (pendingAt < 0) pendingAt = parts.length;
      pending.push(call);
      return;
    }
    if (res.isError || (!isRecord(json) && /error|invalid|failed|not allowed/i.test(res.text))) {
      const err = isRecord(json) && isRecord(json.error) ? json.error : { message: res.text };
      if (call.name === WITHDRAW_TOOL) {
        parts.push(
          `I couldn't withdraw that request${
            typeof err.message === 'string' && err.message ? `: ${clip(err.message, 200)}` : '.'
          }`,
        );
        return;
      }
      const ex = explainError(call, err, ctx);
      parts.push(ex.text);
      offer = alternativesOffer(call, ex.alternatives) ?? offer;
      return;
    }
    switch (call.name) {
      case 'lookup_customer': {
        if (meta?.emailBooking) {
          const email = bookingEmailAfterLookup(round.customerText, json, ctx);
          if (email) {
            changeCalls.push({ name: 'send_email', args: email });
            return;
          }
        }
        if (meta?.record) {
          const next = updateFromRecord(String(call.args.customer_id ?? ''), meta.record, json);
          parts.push(...next.notes);
          if (next.call) changeCalls.push(next.call);
          if (!meta.change) return;
        }
        if (meta?.change) {
          const next = planChangeAfterLookup(messages, ctx, meta.change, meta.change.text ?? round.customerText, json);
          if (next.content) parts.push(next.content);
          changeCalls.push(...next.calls);
          if (meta.change.after) {
            const move = next.calls.find((c) => c.name === 'reschedule_booking');
            const then = followOnBooking(meta.change.after, move, json, ctx, meta.change.afterTime);
            if (then.call) changeCalls.push(then.call);
            if (then.note) parts.push(then.note);
          }
          if (next.meta?.offer) offer = next.meta.offer;
          return;
        }
        parts.push(lookupText(json, detectCues(round.customerText).lookup ?? 'account', ctx));
        const landed = changeLandedFollowUp(round.customerText, json);
        if (landed) parts.push(landed.text);
        if (landed?.call) changeCalls.push(landed.call);
        // A policy question asked beside the account question is answered from the help centre.
        const beside = answerBesideLookup(round.customerText, ctx);
        if (beside) parts.push(beside);
        return;
      }
      case 'search_knowledge_base': {
        const results = isRecord(json) && Array.isArray(json.results) ? json.results.filter(isRecord) : [];
        const retrieved = results.map((r) => ({
          id: String(r.id ?? ''),
          title: String(r.title ?? ''),
          topic: String(r.topic ?? ''),
          snippet: String(r.snippet ?? ''),
          score: typeof r.score === 'number' ? r.score : 0,
        }));
        const q = round.customerText || String(call.args.query ?? '');
        parts.push(answerFromKb(q, { ...ctx, retrieved })?.text ?? noAnswerReply(ctx));
        return;
      }
      case WITHDRAW_TOOL:
        parts.push(withdrawnText(call, json, messages, ctx));
        return;
      default:
        parts.push(executedText(call.name, call.args, json, ctx));
    }
  });
  // An email confirming a booking that was just refused must not go out: take it back first and
  // tell the customer everything after the withdrawal comes back.
  const orphanEmails = orphanedConfirmations(round, ctx);
  if (orphanEmails.length) {
    const stillPending = pending.filter((c) => !orphanEmails.some((o) => o.call === c));
    if (stillPending.length) parts.splice(pendingAt, 0, pendingText(stillPending, ctx));
    for (const n of meta?.notes ?? []) parts.push(n);
    const reason = 'The booking this email would confirm could not be made.';
    return {
      content: '',
      calls: orphanEmails.map((o) => ({ name: WITHDRAW_TOOL, args: { approval_id: o.approvalId, reason } })),
      meta: { notes: parts, autoWithdraw: true, ...(offer ? { offer } : {}) },
    };
  }
  if (meta?.autoWithdraw && round.calls.every((c) => c.name === WITHDRAW_TOOL)) {
    return say(
      [
        ...(meta.notes ?? []),
        "Since that booking didn't go through, I've also withdrawn the confirmation email, so nothing will be sent.",
      ].join('\n\n'),
      meta.offer ? { offer: meta.offer } : undefined,
    );
  }
  if (pending.length) parts.splice(pendingAt, 0, pendingText(pending, ctx));
  for (const n of meta?.notes ?? []) parts.push(n);
  if (changeCalls.length) return { content: parts.join('\n\n'), calls: changeCalls };
  if (!parts.length) parts.push('Done. Is there anything else I can help you with?');
  return say(parts.join('\n\n'), offer ? { offer } : undefined);
}

/** The openings a refusal offered, to pick from: for a new booking, or for moving the booking. */
function alternativesOffer(
  call: { name: string; args: Record<string, unknown> },
  options: { start_time: string; label: string }[],
): Offer | undefined {
  if (!options.length) return undefined;
  if (call.name === 'book_slot' && typeof call.args.service_id === 'string')
    return {
      kind: 'alternatives',
      service_id: call.args.service_id,
      ...(typeof call.args.notes === 'string' ? { notes: call.args.notes } : {}),
      options,
    };
  if (call.name === 'reschedule_booking' && typeof call.args.booking_id === 'string')
    return { kind: 'alternatives', service_id: '', booking_id: call.args.booking_id, options };
  return undefined;
}

/** Pending send_email calls of this round that describe a book_slot of the same round that was refused. */
function orphanedConfirmations(
  round: ReturnType<typeof lastToolRound> & object,
  ctx: PlanContext,
): { call: ToolCallLike; approvalId: string }[] {
  const refused = round.calls.filter(
    (c, i) => c.name === 'book_slot' && round.results[i]?.isError && typeof c.args.start_time === 'string',
  );
  if (!refused.length) return [];
  const out: { call: ToolCallLike; approvalId: string }[] = [];
  round.calls.forEach((c, i) => {
    const json = round.results[i]?.json;
    if (
      c.name !== 'send_email' ||
      !isRecord(json) ||
      json.status !== 'pending_approval' ||
      typeof json.approval_id !== 'string'
    )
      return;
    const text = `${String(c.args.subject ?? '')}\n${String(c.args.body ?? '')}`;
    if (refused.some((b) => text.includes(formatWhen(String(b.args.start_time), ctx.timeZone))))
      out.push({ call: c, approvalId: json.approval_id });
  });
  return out;
}

function withdrawnText(call: ToolCallLike, result: unknown, messages: BaseMessage[], ctx: PlanContext): string {
  if (
    isRecord(result) &&
    (result.status === 'nothing_to_withdraw' || (Array.isArray(result.withdrawn) && result.withdrawn.length === 0))
  ) {
    return 'There was nothing pending to withdraw, so nothing has changed.';
  }
  if (isRecord(result) && Array.isArray(result.withdrawn)) {
    const items = result.withdrawn
      .filter(isRecord)
      .filter((w) => typeof w.tool === 'string' && isRecord(w.args))
      .map((w) => describeCall({ name: w.tool as string, args: w.args as Record<string, unknown> }, ctx));
    if (items.length === 1) return `Okay, I've withdrawn your request to ${items[0]}. Nothing was changed.`;
    if (items.length > 1)
      return `Okay, I've withdrawn these requests:\n${items.map((d) => `- ${d}`).join('\n')}\nNothing was changed.`;
  }
  const id = typeof call.args.approval_id === 'string' ? call.args.approval_id : undefined;
  const original = id ? callForApproval(messages, id, ctx) : undefined;
  if (original) return `Okay, I've withdrawn your request to ${describeCall(original, ctx)}. Nothing was changed.`;
  return id
    ? "Okay, I've withdrawn that request. Nothing was changed."
    : "Okay, I've withdrawn your pending requests. Nothing was changed.";
}

/** A booking as the latest lookup in the window shows it, for saying what stays when a change does not go ahead. */
function bookingOnFile(messages: BaseMessage[], id: unknown): UpcomingBooking | undefined {
  if (typeof id !== 'string') return undefined;
  for (const result of toolResultsLatestFirst(messages)) {
    const found = upcomingOf(result)?.find((b) => b.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The reply to approval updates (decided, executed, failed, expired…) that arrived since our last message. */
export function replyToApprovalEvents(messages: BaseMessage[], ctx: PlanContext): PlannedTurn {
  const events = trailingApprovalEvents(messages);
  const texts: string[] = [];
  let offer: Offer | undefined;
  for (const e of events) {
    // A "superseded" note next to the newer request's own outcome adds nothing.
    if (e.status === 'superseded' && events.length > 1) continue;
    const r = approvalEventText(e, ctx, bookingOnFile(messages, e.args.booking_id));
    texts.push(r.text);
    if (e.status === 'failed' && r.alternatives.length) {
      offer = alternativesOffer({ name: e.tool, args: e.args }, r.alternatives) ?? offer;
    } else if (e.status === 'expired') {
      offer = { kind: 'propose', tool: e.tool, args: e.args };
    }
  }
  return say(texts.join('\n\n') || 'There is an update on your request.', offer ? { offer } : undefined);
}
