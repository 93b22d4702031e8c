import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { approvalEventOf, type ApprovalEvent, type PlanContext } from '../../plan-context.js';
import { toolOutcomeBody, toolOutcomeOf, type ToolOutcome } from '../../tool-outcome.js';
import type { ChangeKind, UpcomingBooking } from './analysis/booking-change.js';
import type { AddressPatch } from './analysis/entities.js';
import { matchServices } from './analysis/services.js';
import { customerWords } from './analysis/impersonation.js';
import { isRecord, messageText } from './analysis/text.js';
import { isoInZone } from './analysis/when.js';

/** What the offline planner leaves on its own AI messages for the next turn to read. */
export const OFFLINE_META_KEY = 'offline_planner';

export type Offer =
  | { kind: 'ticket'; question: string }
  | { kind: 'propose'; tool: string; args: Record<string, unknown> }
  /** We asked what a note asked for should say: the answer is the note. */
  | { kind: 'note_text' }
  /** We asked the address of the home a visit is at (not theirs): the answer books it, the address in its notes. */
  | { kind: 'site'; args: { service_id: string; start_time: string; notes?: string } }
  | {
      kind: 'alternatives';
      service_id: string;
      notes?: string;
      options: { start_time: string; label: string }[];
      /** The times are for moving this booking (reschedule_booking), not for a new one. */
      booking_id?: string;
    }
  | {
      /**
       * We asked which of several requests waiting for approval a change ("move it to thursday") is
       * about; each option carries the book_slot arguments that change makes of it.
       */
      kind: 'which_request';
      options: { service_id: string; requested: string; label: string; args: Record<string, unknown> }[];
    }
  | {
      /** We asked which booking to move or cancel, or (with booking_id) to when. */
      kind: 'booking_change';
      change: ChangeKind;
      bookings: UpcomingBooking[];
      booking_id?: string;
      /** The words that gave the new time, kept until the booking is picked. */
      target?: string;
      reason?: string;
    };

export interface OfflineMeta {
  /** Clarifying questions and answers that go with the tool calls, repeated after the results. */
  notes?: string[];
  offer?: Offer;
  /** We withdrew a request ourselves (an email confirming a booking that was refused). */
  autoWithdraw?: boolean;
  /**
   * The lookup of this message is the first step of moving or cancelling a booking: which booking
   * when it is known already, a note to lead the reply with, and the words that ask for the change when
   * the message asks for other things too; `after`, a service to book straight after the moved visit.
   */
  change?: {
    kind: ChangeKind;
    booking_id?: string;
    lead?: string;
    text?: string;
    after?: string;
    /** The clock time said for the visit `after`, when one was ("straight after at 11"). */
    afterTime?: { hour: number; minute: number };
    /** Only what the change would cost was asked ("how much do i lose if i cancel tomorrow's cleaning"). */
    feeOnly?: true;
  };
  /**
   * The lookup of this message is the first step of an update that builds on the record: the changes
   * known already, plus the part of the address and the note that are completed from what is on file.
   */
  record?: RecordWrite;
  /** The lookup of this message finds the booking the customer asked to be emailed the details of. */
  emailBooking?: true;
}

/** An update_customer that needs the record first: update_customer replaces an address or the notes whole. */
export interface RecordWrite {
  changes: Record<string, unknown>;
  addressPatch?: AddressPatch;
  note?: string;
  /** "make sure you contact me by email": only what the record does not already say is proposed. */
  onlyIfDifferent?: true;
}

export interface ToolCallLike {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export function metaOf(m: BaseMessage | undefined): OfflineMeta | undefined {
  if (!m || !AIMessage.isInstance(m)) return undefined;
  const meta = m.additional_kwargs?.[OFFLINE_META_KEY];
  return isRecord(meta) ? (meta as OfflineMeta) : undefined;
}

export const isCustomerMessage = (m: BaseMessage) => HumanMessage.isInstance(m) && !approvalEventOf(m);

export function customerTexts(messages: BaseMessage[]): string[] {
  return messages.filter(isCustomerMessage).map((m) => messageText(m));
}

/** Approval updates at the end of the window, oldest first. */
export function trailingApprovalEvents(messages: BaseMessage[]): ApprovalEvent[] {
  const out: ApprovalEvent[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const e = approvalEventOf(messages[i]!);
    if (!e) break;
    out.unshift(e);
  }
  return out;
}

export interface ToolRound {
  ai: AIMessage;
  calls: ToolCallLike[];
  /**
   * Each call's outcome, by position in `calls`: `json` is the outcome as the model reads it (the
   * tool message's JSON, or its raw text), `text` the message's text.
   */
  results: ({ text: string; json: unknown; isError: boolean; outcome: ToolOutcome } | undefined)[];
  /** The customer message that led to the round. */
  customerText: string;
}

/** The last AI tool-call message and the tool messages that answer it. */
export function lastToolRound(messages: BaseMessage[]): ToolRound | undefined {
  let i = messages.length - 1;
  const toolMessages: ToolMessage[] = [];
  while (i >= 0 && ToolMessage.isInstance(messages[i]!)) {
    toolMessages.unshift(messages[i] as ToolMessage);
    i--;
  }
  const ai = messages[i];
  if (!ai || !AIMessage.isInstance(ai) || !ai.tool_calls?.length) return undefined;
  const calls: ToolCallLike[] = ai.tool_calls.map((c) => ({
    id: c.id,
    name: c.name,
    args: (c.args ?? {}) as Record<string, unknown>,
  }));
  const results = calls.map((c, idx) => {
    const tm = toolMessages.find((t) => c.id && t.tool_call_id === c.id) ?? (c.id ? undefined : toolMessages[idx]);
    if (!tm) return undefined;
    const outcome = toolOutcomeOf(tm)!;
    return { text: messageText(tm), json: toolOutcomeBody(outcome), isError: outcome.kind === 'error', outcome };
  });
  let customerText = '';
  for (let j = i - 1; j >= 0; j--) {
    if (isCustomerMessage(messages[j]!)) {
      customerText = customerWords(messageText(messages[j]!)).text;
      break;
    }
  }
  return { ai, calls, results, customerText };
}

/** Index of the assistant message right before the last customer message (-1 if none). */
export function aiBeforeLastCustomer(messages: BaseMessage[]): number {
  for (let i = messages.length - 2; i >= 0; i--) {
    const m = messages[i]!;
    if (AIMessage.isInstance(m)) return i;
    if (isCustomerMessage(m)) return -1;
  }
  return -1;
}

export interface BaseBooking {
  service_id: string;
  start_time: string;
  notes?: string;
  source: 'pending' | 'window' | 'summary';
  /** pending: awaiting a manager; proposed: asked for in this window; otherwise the approval outcome. */
  status: 'pending' | 'proposed' | ApprovalEvent['status'] | 'on_file';
  approval_id?: string;
  booking_id?: string;
}

const ISO_RE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})/;

function bookingFromEvent(e: ApprovalEvent, timeZone: string): BaseBooking | undefined {
  const result = isRecord(e.result) && isRecord(e.result.booking) ? e.result.booking : undefined;
  const service_id =
    (typeof result?.service_id === 'string' && result.service_id) ||
    (typeof e.args.service_id === 'string' ? e.args.service_id : '');
  const startRaw =
    (typeof result?.starts_at === 'string' && result.starts_at) ||
    (typeof e.args.start_time === 'string' ? e.args.start_time : '');
  if (!service_id || !startRaw || Number.isNaN(new Date(startRaw).getTime())) return undefined;
  return {
    service_id,
    start_time: isoInZone(new Date(startRaw), timeZone),
    ...(typeof e.args.notes === 'string' ? { notes: e.args.notes } : {}),
    source: 'window',
    status: e.status,
    approval_id: e.approval_id,
    ...(typeof result?.id === 'string' ? { booking_id: result.id } : {}),
  };
}

/**
 * The booking a change like "make it 3pm" refers to: the pending book_slot approval, else the
 * latest booking proposed or decided in the window, else one named in the summary.
 */
export function findBaseBooking(messages: BaseMessage[], ctx: PlanContext): BaseBooking | undefined {
  const pending = ctx.pending.filter((p) => p.tool === 'book_slot');
  const p = pending[pending.length - 1];
  if (p && typeof p.args.service_id === 'string' && typeof p.args.start_time === 'string') {
    return {
      service_id: p.args.service_id,
      start_time: p.args.start_time,
      ...(typeof p.args.notes === 'string' ? { notes: p.args.notes } : {}),
      source: 'pending',
      status: 'pending',
      approval_id: p.approval_id,
    };
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const e = approvalEventOf(m);
    if (e && e.tool === 'book_slot') {
      const b = bookingFromEvent(e, ctx.timeZone);
      if (b) return b;
    }
    if (AIMessage.isInstance(m)) {
      const calls = (m.tool_calls ?? []).filter((c) => c.name === 'book_slot');
      const c = calls[calls.length - 1];
      if (c && typeof c.args.service_id === 'string' && typeof c.args.start_time === 'string') {
        return {
          service_id: c.args.service_id,
          start_time: c.args.start_time,
          ...(typeof c.args.notes === 'string' ? { notes: c.args.notes } : {}),
          source: 'window',
          status: 'proposed',
        };
      }
    }
  }
  const lines = (ctx.summary ?? '').split('\n').reverse();
  const usable = (l: string) => ISO_RE.test(l) && !/\b(rejected|expired|withdrawn|superseded|failed)\b/.test(l);
  const line = lines.find((l) => usable(l) && /book_slot|svc_|BKG-/.test(l)) ?? lines.find(usable);
  const iso = line ? ISO_RE.exec(line) : null;
  if (line && iso && !Number.isNaN(new Date(iso[0]).getTime())) {
    const svcId = /\bsvc_[a-z0-9_]{2,40}\b/.exec(line)?.[0] ?? matchServices(line, ctx.services).matches[0]?.id;
    if (svcId) {
      const bkg = /\bBKG-\d+\b/.exec(line)?.[0];
      return {
        service_id: svcId,
        start_time: isoInZone(new Date(iso[0]), ctx.timeZone),
        source: 'summary',
        status: /\bpending\b/.test(line) ? 'proposed' : 'on_file',
        ...(bkg ? { booking_id: bkg } : {}),
      };
    }
  }
  return undefined;
}

/** The original tool call behind an approval id, found through its pending_approval tool message. */
export function callForApproval(
  messages: BaseMessage[],
  approvalId: string,
  ctx: PlanContext,
): ToolCallLike | undefined {
  const p = ctx.pending.find((x) => x.approval_id === approvalId);
  if (p) return { id: p.tool_call_id, name: p.tool, args: p.args };
  for (const m of messages) {
    if (!ToolMessage.isInstance(m)) continue;
    const outcome = toolOutcomeOf(m);
    if (outcome?.kind === 'pending_approval' && outcome.approval_id === approvalId) {
      for (const a of messages) {
        if (!AIMessage.isInstance(a)) continue;
        const c = a.tool_calls?.find((tc) => tc.id === m.tool_call_id);
        if (c) return { id: c.id, name: c.name, args: c.args as Record<string, unknown> };
      }
    }
  }
  return undefined;
}

/** The tool results in the window as the model reads them, latest first. */
export function toolResultsLatestFirst(messages: BaseMessage[]): unknown[] {
  const out: unknown[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const outcome = ToolMessage.isInstance(m) ? toolOutcomeOf(m) : undefined;
    if (outcome) out.push(toolOutcomeBody(outcome));
  }
  return out;
}

/** The most recent executed outcome of a tool in the window (for "email me the details"). */
export function lastExecuted(messages: BaseMessage[], tool: string): ApprovalEvent | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const e = approvalEventOf(messages[i]!);
    if (e && e.tool === tool && e.status === 'executed') return e;
  }
  return undefined;
}

/** A stable text form of the input, for deterministic tool-call ids. */
export function fingerprint(messages: BaseMessage[]): string {
  return JSON.stringify(
    messages.map((m) => [
      m.getType(),
      messageText(m),
      AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => [c.name, c.args, c.id]) : null,
      ToolMessage.isInstance(m) ? m.tool_call_id : null,
      approvalEventOf(m) ?? null,
      m.additional_kwargs?.plan_context ?? null,
    ]),
  );
}
