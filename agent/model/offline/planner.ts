import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import {
  approvalEventOf,
  FALLBACK_METADATA,
  planContextOf,
  WITHDRAW_TOOL,
  type PlanContext,
} from '../../plan-context.js';
import {
  callForApproval,
  customerTexts,
  findBaseBooking,
  fingerprint,
  isCustomerMessage,
  lastExecuted,
  aiBeforeLastCustomer,
  metaOf,
  lastToolRound,
  OFFLINE_META_KEY,
  trailingApprovalEvents,
  type BaseBooking,
  type OfflineMeta,
  type Offer,
  type ToolCallLike,
} from './conversation.js';
import {
  digitsOf,
  extractAddress,
  extractEmails,
  extractNameChange,
  extractPhones,
  extractPreferences,
  damageIsTheJob,
  otherPerson,
  reportsProblem,
  triage,
  ticketSubject,
  visitNotes,
  wantsTicket,
  type PreferenceChanges,
} from './entities.js';
import { detectCues, isInformationQuestion, requestPart, withdrawTarget, type Cues } from './intents.js';
import {
  answerFromKb,
  answerFromServices,
  approvalEventText,
  denyReply,
  describeCall,
  emailBody,
  executedText,
  explainError,
  farewellReply,
  firstName,
  greetingReply,
  INJECTION_NOTE,
  listServices,
  lookupText,
  otherAccountReply,
  noAnswerReply,
  pendingText,
  proposalText,
  thanksReply,
  timeChoices,
  UNLINKED,
  unknownReply,
} from './replies.js';
import { matchServices, serviceName, type Service, type ServiceMatch } from './services.js';
import { clip, formatPrice, isRecord, joinList, messageText, normalize, sha256, splitSentences } from './text.js';
import {
  combine,
  extractWhen,
  formatClock,
  formatDay,
  formatWhen,
  isoInZone,
  localOf,
  shiftDays,
  shiftMinutes,
  timeOptions,
  type WhenMention,
} from './when.js';

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One planning step: the reply text and the tool calls (empty for a plain answer). */
export interface PlannedTurn {
  content: string;
  calls: PlannedCall[];
  meta?: OfflineMeta;
}

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

const say = (content: string, meta?: OfflineMeta): PlannedTurn => ({ content, calls: [], ...(meta ? { meta } : {}) });

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
  if (ToolMessage.isInstance(last)) return continueAfterTools(messages, ctx, depth);
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
  const later = new Set(messages.slice(index).flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : [])));
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
  const note = "Some of that isn't something I can do from here right now, so a member of our team will need to help with it.";
  return { ...turn, calls: kept, content: kept.length ? `${turn.content}\n\n${note}` : note };
}

// ================================================================== after tool results

function continueAfterTools(messages: BaseMessage[], ctx: PlanContext, depth: number): PlannedTurn {
  const round = lastToolRound(messages);
  if (!round) return say('Is there anything else I can help you with?');
  const meta = recoverMeta(messages, messages.lastIndexOf(round.ai), ctx, depth);
  const parts: string[] = [];
  const pending: ToolCallLike[] = [];
  let pendingAt = -1;
  let offer: Offer | undefined;
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
        parts.push(`I couldn't withdraw that request${typeof err.message === 'string' && err.message ? `: ${clip(err.message, 200)}` : '.'}`);
        return;
      }
      const ex = explainError(call, err, ctx);
      parts.push(ex.text);
      if (ex.alternatives.length && call.name === 'book_slot' && typeof call.args.service_id === 'string') {
        offer = {
          kind: 'alternatives',
          service_id: call.args.service_id,
          ...(typeof call.args.notes === 'string' ? { notes: call.args.notes } : {}),
          options: ex.alternatives,
        };
      }
      return;
    }
    switch (call.name) {
      case 'lookup_customer':
        parts.push(lookupText(json, detectCues(round.customerText).lookup ?? 'account', ctx));
        return;
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
      [...(meta.notes ?? []), "Since that booking didn't go through, I've also withdrawn the confirmation email, so nothing will be sent."].join('\n\n'),
      meta.offer ? { offer: meta.offer } : undefined,
    );
  }
  if (pending.length) parts.splice(pendingAt, 0, pendingText(pending, ctx));
  for (const n of meta?.notes ?? []) parts.push(n);
  if (!parts.length) parts.push('Done. Is there anything else I can help you with?');
  return say(parts.join('\n\n'), offer ? { offer } : undefined);
}

/** Pending send_email calls of this round that describe a book_slot of the same round that was refused. */
function orphanedConfirmations(round: ReturnType<typeof lastToolRound> & object, ctx: PlanContext): { call: ToolCallLike; approvalId: string }[] {
  const refused = round.calls.filter((c, i) => c.name === 'book_slot' && round.results[i]?.isError && typeof c.args.start_time === 'string');
  if (!refused.length) return [];
  const out: { call: ToolCallLike; approvalId: string }[] = [];
  round.calls.forEach((c, i) => {
    const json = round.results[i]?.json;
    if (c.name !== 'send_email' || !isRecord(json) || json.status !== 'pending_approval' || typeof json.approval_id !== 'string') return;
    const text = `${String(c.args.subject ?? '')}\n${String(c.args.body ?? '')}`;
    if (refused.some((b) => text.includes(formatWhen(String(b.args.start_time), ctx.timeZone)))) out.push({ call: c, approvalId: json.approval_id });
  });
  return out;
}

function withdrawnText(call: ToolCallLike, result: unknown, messages: BaseMessage[], ctx: PlanContext): string {
  if (isRecord(result) && (result.status === 'nothing_to_withdraw' || (Array.isArray(result.withdrawn) && result.withdrawn.length === 0))) {
    return 'There was nothing pending to withdraw, so nothing has changed.';
  }
  if (isRecord(result) && Array.isArray(result.withdrawn)) {
    const items = result.withdrawn
      .filter(isRecord)
      .filter((w) => typeof w.tool === 'string' && isRecord(w.args))
      .map((w) => describeCall({ name: w.tool as string, args: w.args as Record<string, unknown> }, ctx));
    if (items.length === 1) return `Okay, I've withdrawn your request to ${items[0]}. Nothing was changed.`;
    if (items.length > 1) return `Okay, I've withdrawn these requests:\n${items.map((d) => `- ${d}`).join('\n')}\nNothing was changed.`;
  }
  const id = typeof call.args.approval_id === 'string' ? call.args.approval_id : undefined;
  const original = id ? callForApproval(messages, id, ctx) : undefined;
  if (original) return `Okay, I've withdrawn your request to ${describeCall(original, ctx)}. Nothing was changed.`;
  return id ? "Okay, I've withdrawn that request. Nothing was changed." : "Okay, I've withdrawn your pending requests. Nothing was changed.";
}

// ==================================================================== approval updates

function replyToApprovalEvents(messages: BaseMessage[], ctx: PlanContext): PlannedTurn {
  const events = trailingApprovalEvents(messages);
  const texts: string[] = [];
  let offer: Offer | undefined;
  for (const e of events) {
    // A "superseded" note next to the newer request's own outcome adds nothing.
    if (e.status === 'superseded' && events.length > 1) continue;
    const r = approvalEventText(e, ctx);
    texts.push(r.text);
    if (e.status === 'failed' && r.alternatives.length && e.tool === 'book_slot' && typeof e.args.service_id === 'string') {
      offer = {
        kind: 'alternatives',
        service_id: e.args.service_id,
        ...(typeof e.args.notes === 'string' ? { notes: e.args.notes } : {}),
        options: r.alternatives,
      };
    } else if (e.status === 'expired') {
      offer = { kind: 'propose', tool: e.tool, args: e.args };
    }
  }
  return say(texts.join('\n\n') || 'There is an update on your request.', offer ? { offer } : undefined);
}

// ===================================================================== customer message

interface Analysis {
  text: string;
  cues: Cues;
  when: WhenMention;
  services: ServiceMatch;
  problem: boolean;
  explicitTicket: boolean;
  infoQuestion: boolean;
  base: BaseBooking | undefined;
  bookingWanted: boolean;
  rescheduleWanted: boolean;
  /** Our previous message asked for booking details ("I'd be happy to book … which day?"). */
  answersBookingQuestion: boolean;
}

const HYPOTHETICAL = /\b(what if|what happens|in case|if (?:a|the|your|you|someone|something|my|i)|are you (?:insured|covered)|do you cover|is there (?:a|an|any) (?:extra |additional )?(?:fee|charge|surcharge|cost)|policy|how do(?:es)? (?:i|you|it) (?:handle|work)|would you)\b/;

function analyze(messages: BaseMessage[], ctx: PlanContext, text: string): Analysis {
  const cues = detectCues(text);
  const when = extractWhen(text, ctx.now, ctx.timeZone);
  const services = matchServices(text, ctx.services);
  const infoQuestion = isInformationQuestion(text) || (cues.question && !cues.book.strong && !cues.book.weak);
  // Only information questions ("how much is it?"), nothing asked of us: never a booking.
  const request = requestPart(text);
  const infoOnly = !request.trim() || (cues.question && !cues.book.strong && !detectCues(request).book.weak);
  const weak = Boolean(request.trim()) && detectCues(request).book.weak;
  const t = normalize(text);
  const explicitTicket = wantsTicket(text);
  // "Can someone patch a hole in my wall Tuesday at 9?" names the job, and "I spilled wine on my
  // carpet, do you do stain removal?" asks a question: neither reports anything we did.
  const repairJob = damageIsTheJob(text) && ((services.matches.length === 1 && (cues.book.strong || cues.book.weak)) || cues.question);
  const problem = (reportsProblem(text) && !(cues.question && HYPOTHETICAL.test(t)) && !repairJob) || explicitTicket;
  const base = findBaseBooking(messages, ctx);
  const hasWhen = Boolean(when.date || when.time || when.ambiguous || when.hint || when.vague);
  const changeCue = cues.reschedule || cues.sameTimeNextWeek || cues.relativeShiftMinutes !== undefined;
  const rescheduleWanted =
    Boolean(base) &&
    !problem &&
    !cues.lookup &&
    ((changeCue && (hasWhen || services.matches.length > 0 || cues.sameTimeNextWeek || cues.relativeShiftMinutes !== undefined || /\b(move|reschedul)/.test(t))) ||
      (hasWhen && !services.matches.length && !cues.book.strong && !infoOnly && !cues.withdraw));
  const prev = aiBeforeLastCustomer(messages);
  const answersBookingQuestion = prev >= 0 && /^I'd be happy to book\b/.test(messageText(messages[prev]).trim());
  const bookingWanted =
    !rescheduleWanted &&
    !(cues.withdraw && !hasWhen) &&
    !cues.lookup &&
    !cues.cancelBooking &&
    (problem
      ? cues.book.strong
      : cues.book.strong ||
        (!infoOnly && weak && (services.matches.length > 0 || hasWhen)) ||
        (!infoOnly && services.matches.length > 0 && Boolean(when.date || when.time || when.ambiguous)) ||
        // "tuesday at 11am" answering our "which day and time?"
        (answersBookingQuestion && !infoOnly && (hasWhen || services.matches.length > 0)));
  return { text, cues, when, services, problem, explicitTicket, infoQuestion, base, bookingWanted, rescheduleWanted, answersBookingQuestion };
}

function planCustomerMessage(messages: BaseMessage[], ctx: PlanContext, depth: number): PlannedTurn {
  const text = messageText(messages[messages.length - 1]).trim();
  const a = analyze(messages, ctx, text);
  const aiIndex = aiBeforeLastCustomer(messages);
  const offer = aiIndex >= 0 && (a.cues.affirm || a.cues.deny || a.when.time || /\b(first|second|third|option|number|one|two|three|[1-5])\b/.test(normalize(text)))
    ? recoverMeta(messages, aiIndex, ctx, depth)?.offer
    : undefined;
  if (offer) {
    const handled = handleOffer(offer, a, ctx);
    if (handled) return handled;
  }
  if (!ctx.customer) return planForUnlinked(a, ctx);
  return planForCustomer(messages, a, ctx, ctx.customer);
}

// ----------------------------------------------------------------------------- offers

const ORDINALS: Record<string, number> = { first: 0, '1st': 0, one: 0, second: 1, '2nd': 1, two: 1, third: 2, '3rd': 2, three: 2, fourth: 3, '4th': 3, fifth: 4, '5th': 4 };

function handleOffer(offer: Offer, a: Analysis, ctx: PlanContext): PlannedTurn | undefined {
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
      return propose([{ name: offer.tool, args }], []);
    }
    case 'alternatives': {
      let idx = -1;
      const ord = /\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th)\b|(?:^|\b(?:option|number|#|no\.?)\s*)([1-5])\s*[.!]?$/.exec(t);
      if (ord) idx = ord[1] ? ORDINALS[ord[1]]! : Number(ord[2]) - 1;
      else if (/^(?:the )?(?:one|two|three)\b/.test(t)) idx = ORDINALS[t.split(' ').find((w) => w in ORDINALS) ?? '']!;
      if (idx < 0 && a.when.time) {
        idx = offer.options.findIndex((o) => {
          const l = localOf(o.start_time, ctx.timeZone);
          const sameDay = !a.when.date || (a.when.date.day === l.day && a.when.date.month === l.month);
          return sameDay && l.hour === a.when.time!.hour && l.minute === a.when.time!.minute;
        });
      }
      if (idx < 0 && a.cues.affirm && offer.options.length === 1) idx = 0;
      const pick = offer.options[idx];
      if (!pick) return undefined;
      const args: Record<string, unknown> = {
        customer_id: customerId,
        service_id: offer.service_id,
        start_time: isoInZone(new Date(pick.start_time), ctx.timeZone),
        ...(offer.notes ? { notes: offer.notes } : {}),
      };
      return propose([{ name: 'book_slot', args }], []);
    }
  }
}

// ------------------------------------------------------------------------ unlinked user

function planForUnlinked(a: Analysis, ctx: PlanContext): PlannedTurn {
  const wantsChange =
    a.bookingWanted ||
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

function hasContactChange(text: string, cues: Cues): boolean {
  const prefs = extractPreferences(text);
  return (
    (extractEmails(text).length > 0 && CHANGE_CUE.test(normalize(text)) && !cues.sendEmail) ||
    (extractPhones(text).length > 0 && PHONE_CUE.test(normalize(text))) ||
    extractAddress(text) !== undefined ||
    extractNameChange(text) !== undefined ||
    Object.keys(prefs).length > 0
  );
}

// ---------------------------------------------------------------- answers and chit-chat

function answerOrChat(a: Analysis, ctx: PlanContext): PlannedTurn {
  const t = normalize(a.text);
  const words = t.split(' ').length;
  const smallTalk = words <= 8 && !a.cues.question;
  if (smallTalk && a.cues.thanks) return say(thanksReply());
  if (smallTalk && a.cues.farewell) return say(farewellReply());
  if (smallTalk && a.cues.greeting && words <= 5) return say(greetingReply(ctx));
  if (a.cues.deny) return say(denyReply());
  if (a.cues.affirm) return say('Great! What can I help you with?');
  const kb = answerFromKb(a.text, ctx);
  if (kb) return say(kb.text);
  const fromServices = answerFromServices(a.text, ctx);
  if (fromServices) return say(fromServices);
  if (a.cues.question || a.infoQuestion) {
    return say(noAnswerReply(ctx), ctx.customer ? { offer: { kind: 'ticket', question: clip(a.text, 4000) } } : undefined);
  }
  if (a.cues.greeting) return say(greetingReply(ctx));
  if (a.cues.thanks) return say(thanksReply());
  return say(unknownReply());
}

// ------------------------------------------------------------------- linked customer

const STATUS_QUESTION =
  /\b(?:is it|is that|is this|has it been|have you|did it|was it|it's|it is|its|am i) (?:\w+ )?(?:confirmed|approved|booked|done|sorted|through|gone through)\b|\bany (?:news|update)\b|\bstatus of\b/;
const CHANGE_CUE = /\b(change|changed|update|updated|new|switch|use|using|is now|now|replace|correct|set|moved|different|instead|should be)\b|\bmy (?:e-?mail|email address)\b/;
const PHONE_CUE = /\b(phone|number|cell|mobile|tel|telephone|call me|text me|reach me|contact me)\b/;

function planForCustomer(
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
  if (ctx.pending.length && STATUS_QUESTION.test(t) && (a.cues.question || a.infoQuestion) && !a.bookingWanted && !a.rescheduleWanted && !a.cues.withdraw && !a.problem) {
    const what = joinList(ctx.pending.map((p) => describeCall({ name: p.tool, args: p.args }, ctx)));
    return say(
      `Not yet: your request to ${what} is still waiting for a manager's approval, so nothing has changed so far. I'll let you know here as soon as a manager decides.`,
    );
  }

  // --- bookings (new or changed)
  let booking: { service: Service | undefined; serviceId: string; start: string; status: 'requested' } | undefined;
  if (a.rescheduleWanted || a.bookingWanted) {
    const r = a.rescheduleWanted ? planReschedule(a, ctx, a.base!) : planBooking(messages, a, ctx);
    if (r.args) {
      const args = { customer_id: customer.id, ...r.args };
      calls.push({ name: 'book_slot', args });
      booking = { service: ctx.services.find((s) => s.id === args.service_id), serviceId: args.service_id, start: args.start_time, status: 'requested' };
    }
    if (r.note) notes.push(r.note);
  }

  // --- withdrawals
  const withdrawing = a.cues.withdraw || (a.cues.cancelBooking && pendingBook.length > 0);
  if (withdrawing && ctx.pending.length) {
    const target = a.cues.cancelBooking ? 'book_slot' : withdrawTarget(a.text);
    const skipBook = booking !== undefined; // a new booking replaces the pending one (the graph supersedes it)
    const matching = ctx.pending.filter((p) => (!target || p.tool === target) && !(skipBook && p.tool === 'book_slot'));
    const reason = clip(a.text, 500);
    if (matching.length && !target && matching.length === ctx.pending.length && matching.length > 1) {
      calls.unshift({ name: WITHDRAW_TOOL, args: { reason } });
    } else if (matching.length) {
      calls.unshift(...matching.map((p) => ({ name: WITHDRAW_TOOL, args: { approval_id: p.approval_id, reason } })));
    } else if (!skipBook) {
      notes.push(`I don't see a pending request like that. Still waiting for approval: ${joinList(ctx.pending.map((p) => describeCall({ name: p.tool, args: p.args }, ctx)))}. Should I withdraw ${ctx.pending.length === 1 ? 'it' : 'those'}?`);
    }
  }
  const nothingToWithdraw = withdrawing && !ctx.pending.length && !a.cues.cancelBooking;

  // --- contact details and preferences
  const update = planUpdate(a, customer, booking !== undefined);
  if (update.changes) calls.push({ name: 'update_customer', args: { customer_id: customer.id, changes: update.changes } });
  notes.push(...update.notes);
  if (update.offer) offer = update.offer;

  // --- problems, complaints, explicit ticket requests, cancellations of booked visits
  if (a.problem || (a.cues.cancelBooking && !pendingBook.length)) {
    const tri = a.problem ? triage(a.text) : { category: 'scheduling' as const, priority: 'normal' as const, label: 'Cancellation request' };
    calls.push({
      name: 'create_ticket',
      args: { customer_id: customer.id, subject: ticketSubject(tri.label, a.text), description: clip(a.text, 4000), priority: tri.priority, category: tri.category },
    });
    if (tri.priority === 'urgent') {
      notes.push(
        /\b(leak|flood|water|burst|pouring|gushing)/.test(t)
          ? "I've marked it urgent. If water is still leaking, turning off the nearest shut-off valve (or the main water supply) will limit the damage until we get there."
          : "I've marked it urgent. If anyone is in danger, please leave the area and call emergency services first.",
      );
    }
  }

  // --- email
  if (a.cues.sendEmail) {
    const e = planEmail(messages, a, ctx, customer, booking, update.changes !== undefined);
    if (e.args) calls.push({ name: 'send_email', args: e.args });
    if (e.note) notes.push(e.note);
  }

  // --- account questions (only on their own)
  if (!calls.length && a.cues.lookup && !notes.length) {
    calls.push({ name: 'lookup_customer', args: { customer_id: customer.id } });
  }

  // --- an availability question with everything needed: offer to request it
  if (!calls.length && !notes.length && a.infoQuestion && a.services.matches.length === 1 && a.when.date && a.when.time && !a.problem) {
    const start = combine(a.when.date, a.when.time, { weekdayOnly: a.when.weekdayOnly, nowIso: ctx.now, timeZone: ctx.timeZone });
    if (!start.inPast) {
      const s = a.services.matches[0]!;
      return say(
        `I can't see live availability from here, but I can request ${s.name} on ${formatWhen(start.iso, ctx.timeZone)} for you and our team will confirm it. Would you like me to do that?`,
        { offer: { kind: 'propose', tool: 'book_slot', args: { customer_id: customer.id, service_id: s.id, start_time: start.iso } } },
      );
    }
  }

  // --- "move it to Thursday" with nothing to move
  if (!calls.length && !notes.length && !a.base && a.cues.reschedule && (a.when.date || a.when.time) && !a.infoQuestion && !a.problem) {
    return say("I don't see a booking in our conversation to change. Which service would you like, and on which day and at what time?");
  }

  // "Change Maria Chen's email", "book for my neighbour": the tools act on this customer's record
  // only, so such a request must not become a change (or a lookup) of their own.
  const other = otherPerson(a.text, customer);
  if (other && calls.some((c) => c.name !== WITHDRAW_TOOL)) return say(otherAccountReply(other));

  if (calls.length) {
    // A question asked alongside the request still gets its answer.
    const answer = a.cues.lookup ? '' : sideAnswer(a.text, ctx);
    return propose(calls, answer ? [answer, ...notes] : notes, a.cues.injection, offer);
  }
  if (notes.length) {
    // A clarifying question still answers what the customer asked alongside ("…Is that possible?").
    return say([sideAnswer(a.text, ctx), ...notes].filter(Boolean).join('\n\n'), offer ? { offer } : undefined);
  }
  if (nothingToWithdraw && !a.problem) {
    return say("There's nothing waiting for approval right now, so there is nothing to withdraw and nothing will change. Is there anything else I can help with?");
  }
  return answerOrChat(a, ctx);
}

/** The answer to information questions asked next to a request ("How much is it? Book one for…"). */
function sideAnswer(text: string, ctx: PlanContext): string {
  const questions = splitSentences(text)
    .filter((s) => s.trim().endsWith('?') && isInformationQuestion(s))
    .join(' ');
  // "How much is it?" says little on its own: then read it with the rest of the message.
  const kb = questions ? (answerFromKb(questions, ctx) ?? answerFromKb(text, ctx)) : undefined;
  return kb ? kb.text.replace(/ (Would you like me to book|Is there anything else)[^]*$/, '') : '';
}

function propose(calls: PlannedCall[], notes: string[], injection = false, offer?: Offer): PlannedTurn {
  const text = [proposalText(calls), injection ? INJECTION_NOTE : '', ...notes].filter(Boolean).join('\n\n');
  const meta: OfflineMeta = {};
  if (notes.length) meta.notes = notes;
  if (offer) meta.offer = offer;
  return { content: text, calls, ...(Object.keys(meta).length ? { meta } : {}) };
}

// ----------------------------------------------------------------------------- booking

interface BookingPlan {
  args?: { service_id: string; start_time: string; notes?: string };
  note?: string;
}

/** The service a new booking is for: named now, or named earlier in the window, or the one being discussed. */
function resolveService(messages: BaseMessage[], a: Analysis, ctx: PlanContext): { service?: Service; choices: Service[] } {
  if (a.services.matches.length === 1) return { service: a.services.matches[0]!, choices: [] };
  if (a.services.matches.length > 1) return { choices: a.services.matches };
  if (a.services.candidates.length === 1) return { service: a.services.candidates[0]!, choices: [] };
  if (a.services.candidates.length > 1) return { choices: a.services.candidates };
  const earlier = customerTexts(messages).slice(0, -1).reverse().slice(0, 4);
  for (const text of earlier) {
    const m = matchServices(text, ctx.services).matches;
    if (m.length === 1) return { service: m[0]!, choices: [] };
  }
  if (a.base && (a.base.status === 'pending' || a.base.status === 'proposed')) {
    const s = ctx.services.find((x) => x.id === a.base!.service_id);
    if (s) return { service: s, choices: [] };
  }
  if (ctx.services.length === 1) return { service: ctx.services[0]!, choices: [] };
  return { choices: [...ctx.services] };
}

function planBooking(messages: BaseMessage[], a: Analysis, ctx: PlanContext): BookingPlan {
  const { service, choices } = resolveService(messages, a, ctx);
  const w = a.answersBookingQuestion ? withEarlierWhen(messages, a.when, ctx) : a.when;
  const missing: string[] = [];
  let start: string | undefined;
  let timeQuestion: string | undefined;
  const today = localOf(ctx.now, ctx.timeZone);
  const isToday = w.date && w.date.year === today.year && w.date.month === today.month && w.date.day === today.day && !w.weekdayOnly;
  if (isToday && !(w.time && combine(w.date!, w.time, { nowIso: ctx.now, timeZone: ctx.timeZone }).inPast)) {
    // Online booking starts tomorrow; the help centre says how to get someone today.
    const kb = answerFromKb(a.text, ctx)?.text.replace(/ (Would you like me to book|Is there anything else)[^]*$/, '');
    return { note: [kb, "I can't book a visit for today from here: bookings start from tomorrow. Would another day work for you?"].filter(Boolean).join('\n\n') };
  }
  if (w.ambiguous) {
    const [am, pm] = w.ambiguous.options;
    timeQuestion = `Just to be sure: did you mean ${formatClock(am)} or ${formatClock(pm)}${w.date ? ` on ${formatDay(w.date, ctx.timeZone)}` : ''}? (Our visits start between 8:00 AM and 5:00 PM.)`;
  } else if (w.date && w.time) {
    const c = combine(w.date, w.time, { weekdayOnly: w.weekdayOnly, nowIso: ctx.now, timeZone: ctx.timeZone });
    if (c.inPast) timeQuestion = `${formatDay(w.date, ctx.timeZone)} at ${formatClock(w.time)} has already passed. Which day and time would you like instead?`;
    else start = c.iso;
  } else if (w.date) {
    missing.push(`what time on ${formatDay(w.date, ctx.timeZone)} (for example ${timeChoices(undefined, timeOptions(w.hint), ctx.timeZone)})`);
  } else if (w.time) {
    missing.push(`which day you'd like ${formatClock(w.time)}`);
  } else if (w.vague) {
    missing.push(`which day ${w.vague} works for you, and at what time`);
  } else {
    missing.push(`which day and time work for you${w.hint ? ` (in the ${w.hint}, for example ${timeChoices(undefined, timeOptions(w.hint), ctx.timeZone)})` : ''}`);
  }
  if (!service) missing.unshift(`which service you'd like (${listServices(choices.length ? choices : ctx.services)})`);
  if (service && start && !missing.length && !timeQuestion) {
    const notes = bookingNotes(a);
    return { args: { service_id: service.id, start_time: start, ...(notes ? { notes } : {}) } };
  }
  const what = service ? `${service.name}` : 'a visit';
  const parts = [`I'd be happy to book ${what} for you.`];
  if (missing.length) parts.push(`Could you tell me ${joinList(missing)}?`);
  if (timeQuestion) parts.push(timeQuestion);
  return { note: parts.join(' ') };
}

/** The day or time the customer gave earlier in this booking dialogue, where this message gives none. */
function withEarlierWhen(messages: BaseMessage[], when: WhenMention, ctx: PlanContext): WhenMention {
  let out = when;
  for (const text of customerTexts(messages).slice(0, -1).reverse().slice(0, 3)) {
    const e = extractWhen(text, ctx.now, ctx.timeZone);
    if (!out.date && e.date) out = { ...out, date: e.date, weekdayOnly: e.weekdayOnly };
    if (!out.time && !out.ambiguous && e.time) out = { ...out, time: e.time };
  }
  return out;
}

function bookingNotes(a: Analysis, extra?: string): string | undefined {
  const fromText = visitNotes(a.text);
  const prefs = extractPreferences(a.text);
  const eco = prefs.eco_products === true && !(fromText && /\beco/i.test(fromText)) ? 'Please use eco-friendly products' : undefined;
  const all = [extra, fromText, eco].filter(Boolean).join('. ');
  return all ? clip(all, 1000) : undefined;
}

function planReschedule(a: Analysis, ctx: PlanContext, base: BaseBooking): BookingPlan {
  const tz = ctx.timeZone;
  const w = a.when;
  const service = a.services.matches.length === 1 ? a.services.matches[0]! : undefined;
  const serviceId = service?.id ?? base.service_id;
  let start: string | undefined;
  if (a.cues.sameTimeNextWeek) start = shiftDays(base.start_time, 7, tz);
  else if (a.cues.relativeShiftMinutes !== undefined && !w.time) start = shiftMinutes(base.start_time, a.cues.relativeShiftMinutes, tz);
  else if (w.ambiguous) {
    const [am, pm] = w.ambiguous.options;
    return { note: `Just to be sure: did you mean ${formatClock(am)} or ${formatClock(pm)}? Our visits start between 8:00 AM and 5:00 PM.` };
  } else {
    const b = localOf(base.start_time, tz);
    let date = w.date ?? { year: b.year, month: b.month, day: b.day };
    if (!w.date && w.vague && /next week/i.test(w.vague)) {
      const shifted = localOf(shiftDays(base.start_time, 7, tz), tz);
      date = { year: shifted.year, month: shifted.month, day: shifted.day };
    }
    const time = w.time ?? { hour: b.hour, minute: b.minute };
    if (!w.date && !w.time && !service && !(w.vague && /next week/i.test(w.vague))) {
      return { note: `Sure. What day or time would you like instead of ${formatWhen(base.start_time, tz)}?` };
    }
    const c = combine(date, time, { weekdayOnly: w.weekdayOnly ?? false, nowIso: ctx.now, timeZone: tz });
    if (c.inPast) return { note: `${formatWhen(c.iso, tz)} has already passed. Which day and time would you like instead?` };
    start = c.iso;
  }
  if (new Date(start).getTime() <= new Date(ctx.now).getTime()) {
    return { note: `${formatWhen(start, tz)} has already passed. Which day and time would you like instead?` };
  }
  if (serviceId === base.service_id && new Date(start).getTime() === new Date(base.start_time).getTime() && base.status === 'pending') {
    return { note: `That's the same as the request already waiting for approval: ${serviceName(ctx.services, serviceId)} on ${formatWhen(start, tz)}.` };
  }
  // "same time next week too", "another one": an extra visit, not a move of the booked one.
  const additional = /\b(too|also|another|additional|as well|again)\b/i.test(a.text);
  const carry =
    !additional && (base.status === 'executed' || base.status === 'on_file') && base.booking_id
      ? `Reschedule of booking ${base.booking_id} (currently ${formatWhen(base.start_time, tz)})`
      : undefined;
  const keptNotes = base.notes && !base.notes.startsWith('Reschedule of booking') ? base.notes : undefined;
  const notes = bookingNotes(a, [carry, keptNotes].filter(Boolean).join('. ') || undefined);
  return { args: { service_id: serviceId, start_time: start, ...(notes ? { notes } : {}) } };
}

// ------------------------------------------------------------------------------ updates

interface UpdatePlan {
  changes?: Record<string, unknown>;
  notes: string[];
  offer?: Offer;
}

function planUpdate(a: Analysis, customer: NonNullable<PlanContext['customer']>, bookingInMessage: boolean): UpdatePlan {
  const t = normalize(a.text);
  const changes: Record<string, unknown> = {};
  const notes: string[] = [];
  let offer: Offer | undefined;

  const emails = extractEmails(a.text);
  if (emails.length) {
    const e = emails[0]!;
    const changeAsked = CHANGE_CUE.test(t) || /\be-?mail\b/.test(t);
    if (!e.valid) {
      if (changeAsked) notes.push(`"${e.value}" doesn't look like a complete email address. Could you double-check it?`);
    } else if (customer.email && customer.email.toLowerCase() === e.value.toLowerCase()) {
      if (changeAsked && !a.cues.sendEmail) notes.push(`${e.value} is already the email address we have on file, so there's nothing to change.`);
    } else if ((a.cues.sendEmail || sendsTo(a.text, e.value)) && !/\b(change|update|new|switch|replace)\b/.test(t)) {
      notes.push(
        `Emails go to the address on your account${customer.email ? ` (${customer.email})` : ''}. Would you like me to update your email address to ${e.value}?`,
      );
      offer = { kind: 'propose', tool: 'update_customer', args: { customer_id: customer.id, changes: { email: e.value } } };
    } else if (changeAsked) {
      changes.email = e.value;
    } else if (!a.bookingWanted && !a.problem) {
      notes.push(`Would you like me to update your email address to ${e.value}?`);
      offer = { kind: 'propose', tool: 'update_customer', args: { customer_id: customer.id, changes: { email: e.value } } };
    }
  }

  const phones = extractPhones(a.text);
  if (phones.length && (PHONE_CUE.test(t) || CHANGE_CUE.test(t))) {
    const p = phones[0]!;
    if (digitsOf(customer.phone) && digitsOf(customer.phone).endsWith(digitsOf(p).slice(-10)) && digitsOf(p).length >= 10) {
      notes.push(`${p} is already the phone number we have on file.`);
    } else {
      changes.phone = p;
    }
  }

  const address = extractAddress(a.text);
  if (address?.ok) changes.address = address.address;
  else if (address && !address.ok) {
    notes.push('Could you send me the full new address, including the street, any apartment or unit number, the city and the postal code? For example: 12 Oak St, Apt 3, Maple Harbor MH 1042.');
  }

  const name = extractNameChange(a.text);
  if (name && name !== customer.name) changes.name = name;

  const prefs: PreferenceChanges = extractPreferences(a.text);
  if (bookingInMessage || a.bookingWanted || a.rescheduleWanted) {
    // In a booking message these are notes for the crew, not standing preferences.
    delete prefs.pets;
    delete prefs.eco_products;
    delete prefs.preferred_time;
  }
  if (a.cues.sendEmail) delete prefs.contact;
  if (Object.keys(prefs).length) changes.preferences = prefs;

  return { ...(Object.keys(changes).length ? { changes } : {}), notes, ...(offer ? { offer } : {}) };
}

/** "Email the confirmation to my work address x@y", "send an email to x@y": a destination, not a new address on file. */
function sendsTo(text: string, address: string): boolean {
  const escaped = address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:\\b(?:send|forward|cc)\\b|\\be-?mail (?:it|that|this|them|the|a|an|my)\\b)[^.!?]*\\bto\\b[^.!?@]*${escaped}`, 'i').test(text);
}

// -------------------------------------------------------------------------------- email

function planEmail(
  messages: BaseMessage[],
  a: Analysis,
  ctx: PlanContext,
  customer: NonNullable<PlanContext['customer']>,
  booking: { service: Service | undefined; serviceId: string; start: string } | undefined,
  emailChanging: boolean,
): { args?: { customer_id: string; subject: string; body: string }; note?: string } {
  if (!customer.email && !emailChanging) {
    return { note: "We don't have an email address on file for you yet, so I can't email you. If you tell me your email address, I can ask to add it to your account." };
  }
  if (emailChanging) {
    return { note: "Once your new email address is approved, just ask and I'll email you the details." };
  }
  const name = firstName(ctx);
  const tz = ctx.timeZone;
  const bookingFacts = (serviceId: string, start: string, status: string, bookingId?: string) => {
    const s = ctx.services.find((x) => x.id === serviceId);
    return [
      `Service: ${s?.name ?? serviceName(ctx.services, serviceId)}`,
      `When: ${formatWhen(start, tz)}`,
      ...(s ? [`Price: ${formatPrice(s.price_cents)}`] : []),
      ...(bookingId ? [`Booking: ${bookingId}`] : []),
      `Status: ${status}`,
    ];
  };
  const REQUESTED = 'Requested. Our team reviews every booking request and will confirm it shortly.';
  if (booking) {
    const svc = serviceName(ctx.services, booking.serviceId);
    return {
      args: {
        customer_id: customer.id,
        subject: clip(`Your Brightwell booking request: ${svc} on ${formatWhen(booking.start, tz)}`, 200),
        body: emailBody(name, 'Thanks for your booking request. Here are the details:', bookingFacts(booking.serviceId, booking.start, REQUESTED), 'If anything needs to change, just let us know in Slack.'),
      },
    };
  }
  const base = a.base;
  if (base && ['pending', 'proposed', 'executed', 'on_file'].includes(base.status)) {
    const confirmed = base.status === 'executed' || base.status === 'on_file';
    const svc = serviceName(ctx.services, base.service_id);
    return {
      args: {
        customer_id: customer.id,
        subject: clip(`Your Brightwell booking ${confirmed ? 'confirmation' : 'request'}: ${svc} on ${formatWhen(base.start_time, tz)}`, 200),
        body: emailBody(
          name,
          confirmed ? 'Your visit is booked. Here are the details:' : 'Thanks for your booking request. Here are the details:',
          bookingFacts(base.service_id, base.start_time, confirmed ? 'Confirmed' : REQUESTED, base.booking_id),
          'If anything needs to change, just let us know in Slack.',
        ),
      },
    };
  }
  const ticket = lastExecuted(messages, 'create_ticket');
  const tr = ticket && isRecord(ticket.result) && isRecord(ticket.result.ticket) ? ticket.result.ticket : undefined;
  if (ticket && tr) {
    return {
      args: {
        customer_id: customer.id,
        subject: clip(`Your Brightwell support ticket ${String(tr.id ?? '')}`.trim(), 200),
        body: emailBody(
          name,
          "We've opened a support ticket for you. Here are the details:",
          [`Ticket: ${String(tr.id ?? '')}`, `Subject: ${String(tr.subject ?? ticket.args.subject ?? '')}`, `Priority: ${String(tr.priority ?? ticket.args.priority ?? '')}`],
          'Our team will follow up with you soon.',
        ),
      },
    };
  }
  if (a.bookingWanted || a.rescheduleWanted) {
    return { note: "Once we've settled the booking details, I can email you the confirmation." };
  }
  return { note: "What would you like me to email you? I can send the details of a booking once we've set one up, or of a ticket we've opened." };
}

// ============================================================================ messages

/** Deterministic tool-call id: the same thread, input and position always give the same id. */
export function toolCallId(threadKey: string, turnKey: string, index: number): string {
  return `call_${sha256(`${threadKey}|${turnKey}|${index}`).slice(0, 24)}`;
}

/** The AIMessage for a planned turn, carrying FALLBACK_METADATA. */
export function toAIMessage(turn: PlannedTurn, messages: BaseMessage[], threadKey = ''): AIMessage {
  const turnKey = sha256(fingerprint(messages));
  const tool_calls = turn.calls.map((c, i) => ({ id: toolCallId(threadKey, turnKey, i), name: c.name, args: c.args, type: 'tool_call' as const }));
  return new AIMessage({
    content: turn.content,
    tool_calls,
    response_metadata: { ...FALLBACK_METADATA },
    additional_kwargs: turn.meta ? { [OFFLINE_META_KEY]: turn.meta } : {},
  });
}
