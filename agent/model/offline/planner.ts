import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import {
  approvalEventOf,
  FALLBACK_METADATA,
  planContextOf,
  WITHDRAW_TOOL,
  type PlanContext,
} from '../../plan-context.js';
import {
  aiBeforeLastCustomer,
  fingerprint,
  isCustomerMessage,
  metaOf,
  OFFLINE_META_KEY,
  type OfflineMeta,
} from './conversation.js';
import { analyze, type Analysis } from './analysis/analyze.js';
import { otherPerson } from './analysis/entities.js';
import { customerWords } from './analysis/impersonation.js';
import { keptBesideRetraction, retractions } from './analysis/retraction.js';
import { messageText, sha256 } from './analysis/text.js';
import { hasContactChange } from './intents/contact-change.js';
import { planForCustomer, planForUnlinked } from './intents/customer-message.js';
import { continueAfterTools, replyToApprovalEvents } from './intents/follow-ups.js';
import { handleOffer } from './intents/offers.js';
import { say, type PlannedCall, type PlannedTurn } from './intents/turn.js';
import { greetingReply, otherAccountReply, unknownReply } from './replies/templates.js';

/*
 * The offline planner's entry: the last message says which room plans the reply. A customer
 * message is read once (analysis/), answered to an offer of ours (intents/offers) or planned per
 * intent (intents/customer-message and the planners it calls); tool results and approval updates
 * are followed up (intents/follow-ups). Replies are written from replies/.
 */

export type { PlannedCall, PlannedTurn };

export interface PlanOptions {
  /** Tools bound with bindTools; calls to others are not made. Undefined: all tools. */
  toolNames?: readonly string[];
}

export const DEFAULT_TIME_ZONE = 'America/New_York';

function contextOf(messages: BaseMessage[]): PlanContext {
  const ctx = planContextOf(messages);
  return {
    now: ctx?.now ?? new Date().toISOString(),
    timeZone: ctx?.timeZone || DEFAULT_TIME_ZONE,
    customer: ctx?.customer ?? null,
    retrieved: ctx?.retrieved ?? [],
    pending: ctx?.pending ?? [],
    services: ctx?.services ?? [],
    summary: ctx?.summary ?? '',
  };
}

/**
 * Decide the next assistant message from the window: the last message says what to do (a
 * customer message → plan; tool results → report them; approval updates → tell the customer).
 */
export function planTurn(messages: BaseMessage[], opts: PlanOptions = {}): PlannedTurn {
  return restrictToBoundTools(planWith(messages, contextOf(messages), 0), opts.toolNames);
}

function planWith(messages: BaseMessage[], ctx: PlanContext, depth: number): PlannedTurn {
  const last = messages[messages.length - 1];
  if (!last) return say(greetingReply(ctx));
  if (ToolMessage.isInstance(last))
    return continueAfterTools(messages, ctx, (i) => recoverMeta(messages, i, ctx, depth));
  if (approvalEventOf(last)) return replyToApprovalEvents(messages, ctx);
  if (isCustomerMessage(last)) return planCustomerMessage(messages, ctx, depth);
  return say('Is there anything else I can help you with?');
}

const MAX_REPLAN_DEPTH = 3;

/**
 * The notes and offer of an earlier assistant message of ours. They ride along in
 * additional_kwargs when the graph keeps them; otherwise the turn is planned again from the
 * messages before it (planning is deterministic) and used only if it reproduces that message.
 */
function recoverMeta(messages: BaseMessage[], index: number, ctx: PlanContext, depth: number): OfflineMeta | undefined {
  const ai = messages[index];
  if (!ai || !AIMessage.isInstance(ai)) return undefined;
  const stored = metaOf(ai);
  if (stored) return stored;
  if (depth >= MAX_REPLAN_DEPTH || index < 1) return undefined;
  const later = new Set(
    messages.slice(index).flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : [])),
  );
  const earlierCtx = { ...ctx, pending: ctx.pending.filter((p) => !later.has(p.tool_call_id)) };
  const again = planWith(messages.slice(0, index), earlierCtx, depth + 1);
  const calls = ai.tool_calls ?? [];
  const same = calls.length
    ? calls.length === again.calls.length && calls.every((c, i) => c.name === again.calls[i]!.name)
    : !again.calls.length && messageText(ai).trim() === again.content.trim();
  return same ? again.meta : undefined;
}

function restrictToBoundTools(turn: PlannedTurn, toolNames: readonly string[] | undefined): PlannedTurn {
  if (!toolNames || !turn.calls.length) return turn;
  const allowed = new Set([...toolNames, WITHDRAW_TOOL]);
  const kept = turn.calls.filter((c) => allowed.has(c.name));
  if (kept.length === turn.calls.length) return turn;
  const note =
    "Some of that isn't something I can do from here right now, so a member of our team will need to help with it.";
  return { ...turn, calls: kept, content: kept.length ? `${turn.content}\n\n${note}` : note };
}

function planCustomerMessage(messages: BaseMessage[], ctx: PlanContext, depth: number): PlannedTurn {
  const raw = messageText(messages[messages.length - 1]);
  const own = customerWords(raw);
  if (own.quoted && !own.impersonated) return withNote(planOwnWords(messages, ctx, depth, own.text), QUOTED_NOTE);
  if (!own.impersonated) return planOwnWords(messages, ctx, depth, own.text);
  // The quoted part may still say whose record it is after ("Update cus_005's phone"): that is refused as such.
  // Named in their own words ("how much is it in <town>? asking for my sister"), the other person is who a
  // general question is for: the question is answered as asked (a request for them is refused where it is planned).
  const other =
    ctx.customer && !otherPerson(own.text, ctx.customer, ctx.services)
      ? otherPerson(raw, ctx.customer, ctx.services)
      : undefined;
  const turn = own.text ? planOwnWords(messages, ctx, depth, own.text) : say('What can I help you with?');
  if (turn.calls.length) return turn;
  return { ...turn, content: [IMPERSONATION_NOTE, other ? otherAccountReply(other) : turn.content].join('\n\n') };
}

/** Said when a message quoted another speaker (a proposal says how approval works by itself). */
const IMPERSONATION_NOTE =
  'Part of your message was written as if it came from me or our system, so I have not acted on it: ' +
  'only what you ask yourself, approved by our team, changes anything.';

/** Said when a message quoted something the customer received ("> Your phone number has been changed…"). */
const QUOTED_NOTE =
  "I've read the quoted part as something you received, not as a request, so I haven't acted on anything in it.";

/** A note before a plain answer (a proposal says what happens by itself). */
const withNote = (turn: PlannedTurn, note: string): PlannedTurn =>
  turn.calls.length ? turn : { ...turn, content: [note, turn.content].join('\n\n') };

function planOwnWords(messages: BaseMessage[], ctx: PlanContext, depth: number, text: string): PlannedTurn {
  const all = retractions(text);
  const taken = all.at(-1);
  // "cancel … pls. wait no scrap that, wife says the hole is getting bigger. leave it booked": the request is before
  // the first retraction; what comes between is why it was taken back.
  if (taken && all.some((r) => asksForWrite(analyze(messages, ctx, r.before)))) {
    // "change my phone … and book a clean …. actually nvm the phone": the booking still stands.
    const kept = taken.after ? undefined : keptBesideRetraction(taken);
    if (kept && asksForWrite(analyze(messages, ctx, kept))) return planOwnWords(messages, ctx, depth, kept);
    // "book … actually hold off, ill get back to u": only the words after the retraction still ask anything.
    const rest = taken.after ? planOwnWords(messages, ctx, depth, taken.after) : undefined;
    if (rest?.calls.length) return rest;
    const said = rest && rest.content !== unknownReply() ? rest.content : '';
    return say([RETRACTED_NOTE, said].filter(Boolean).join('\n\n'));
  }
  return planAnalysed(messages, ctx, depth, text);
}

/** Said when a message asked for something and took it back. */
const RETRACTED_NOTE =
  "No problem, I've left everything as it is: nothing has been requested and nothing will change. " +
  'Just let me know if you want to go ahead later.';

/** The message asks for a change of some kind (a booking, a change of one, an update, an email). */
const asksForWrite = (a: Analysis): boolean =>
  a.bookingWanted ||
  a.rescheduleWanted ||
  a.bookingChange !== undefined ||
  a.cues.cancelBooking ||
  a.cues.sendEmail ||
  hasContactChange(a.text, a.cues);

function planAnalysed(messages: BaseMessage[], ctx: PlanContext, depth: number, text: string): PlannedTurn {
  const a = analyze(messages, ctx, text);
  const aiIndex = aiBeforeLastCustomer(messages);
  // Any reply can answer an offer of ours ("the window cleaning" to "which booking?"); handleOffer
  // passes on what doesn't.
  const offer = aiIndex >= 0 ? recoverMeta(messages, aiIndex, ctx, depth)?.offer : undefined;
  if (offer) {
    const handled = handleOffer(offer, a, ctx);
    if (handled) return handled;
  }
  if (!ctx.customer) return planForUnlinked(a, ctx);
  return planForCustomer(messages, a, ctx, ctx.customer);
}

/** Deterministic tool-call id: the same thread, input and position always give the same id. */
export function toolCallId(threadKey: string, turnKey: string, index: number): string {
  return `call_${sha256(`${threadKey}|${turnKey}|${index}`).slice(0, 24)}`;
}

/** The AIMessage for a planned turn, carrying FALLBACK_METADATA. */
export function toAIMessage(turn: PlannedTurn, messages: BaseMessage[], threadKey = ''): AIMessage {
  const turnKey = sha256(fingerprint(messages));
  const tool_calls = turn.calls.map((c, i) => ({
    id: toolCallId(threadKey, turnKey, i),
    name: c.name,
    args: c.args,
    type: 'tool_call' as const,
  }));
  return new AIMessage({
    content: turn.content,
    tool_calls,
    response_metadata: { ...FALLBACK_METADATA },
    // Stored even when empty: a message without it is planned again to recover its notes (below).
    additional_kwargs: { [OFFLINE_META_KEY]: turn.meta ?? {} },
  });
}
