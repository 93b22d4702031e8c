import type { z } from 'zod';
import { describeOpeningHours, SLOT_DAYS } from '../business/calendar.js';
import type { ChangeKind } from '../business/change-policy.js';
import { BookSlotInput, BookSlotOutput } from './book-slot.js';
import {
  CancelBookingInput,
  CancelBookingOutput,
  RescheduleBookingInput,
  RescheduleBookingOutput,
} from './booking-change.js';
import { canonicalJson, hashArgs } from './canonical.js';
import { readTool, writeTool, type ToolContract } from './contract.js';
import { CreateTicketInput, CreateTicketOutput } from './create-ticket.js';
import { LookupCustomerInput, LookupCustomerOutput } from './lookup-customer.js';
import { SearchKnowledgeBaseInput, SearchKnowledgeBaseOutput } from './search-knowledge-base.js';
import { SendEmailInput, SendEmailOutput } from './send-email.js';
import { UpdateCustomerInput, UpdateCustomerOutput } from './update-customer.js';
import { storableJson } from '../../core/storable-text.js';
import { BUSINESS } from '../business/profile.js';

/**
 * The one list of tools. The MCP server publishes it with a handler joined to each entry, the
 * agent's gate routes by `MUTATING_TOOLS`, the eval checks argument validity with `parseToolArgs`,
 * the Slack edit form is generated from `input`. Nothing else names the tools again.
 */
export const TOOL_CATALOG = [
  readTool({
    name: 'search_knowledge_base',
    title: 'Search the help centre',
    verb: 'Search the help centre',
    description: 'Search the help centre (prices, policies, hours, area, how-to).',
    input: SearchKnowledgeBaseInput,
    output: SearchKnowledgeBaseOutput,
    publicData: true,
    modelOmits: ['limit'],
  }),
  readTool({
    name: 'lookup_customer',
    title: 'Look up a customer',
    verb: 'Look up a customer',
    description: 'Find a customer by id, email, phone or name: the record, upcoming_bookings and open_tickets.',
    input: LookupCustomerInput,
    output: LookupCustomerOutput,
  }),
  writeTool({
    name: 'create_ticket',
    title: 'Create a support ticket',
    verb: 'Create a support ticket',
    description: 'Open a support ticket for what the chat cannot settle (complaint, damage, billing).',
    input: CreateTicketInput,
    output: CreateTicketOutput,
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }),
  writeTool({
    name: 'update_customer',
    title: 'Update customer details',
    verb: 'Update customer details',
    description: "Change a customer's contact details, address, preferences or notes: only the fields to change.",
    input: UpdateCustomerInput,
    output: UpdateCustomerOutput,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }),
  writeTool({
    name: 'send_email',
    title: 'Send an email',
    verb: 'Send an email',
    description: `Email the customer at their address on file. Plain text, signed "${BUSINESS.name}".`,
    input: SendEmailInput,
    output: SendEmailOutput,
    // In a customer's conversation the server sends only to the address on file.
    modelOmits: ['to'],
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  }),
  writeTool({
    name: 'book_slot',
    title: 'Book a visit',
    verb: 'Book a visit',
    description:
      `Book a new visit (not to move one), on the hour: ${describeOpeningHours()}, tomorrow to ${SLOT_DAYS} ` +
      'days ahead. If refused, offer only details.alternatives.',
    input: BookSlotInput,
    output: BookSlotOutput,
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }),
  writeTool({
    name: 'reschedule_booking',
    title: 'Move a booking',
    verb: 'Move a booking',
    description: 'Move an existing booking to a new start. If refused, offer details.alternatives. Returns the fee.',
    input: RescheduleBookingInput,
    output: RescheduleBookingOutput,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }),
  writeTool({
    name: 'cancel_booking',
    title: 'Cancel a booking',
    verb: 'Cancel a booking',
    description: 'Cancel an existing booking. Returns the fee.',
    input: CancelBookingInput,
    output: CancelBookingOutput,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }),
] as const;

export type ToolName = (typeof TOOL_CATALOG)[number]['name'];
/** The exact contract of one tool, with its own input and output types. */
export type ContractOf<N extends ToolName> = Extract<(typeof TOOL_CATALOG)[number], { name: N }>;

export const TOOLS: readonly ToolContract[] = TOOL_CATALOG as unknown as readonly ToolContract[];

const BY_NAME: ReadonlyMap<string, ToolContract> = new Map(TOOLS.map((t) => [t.name, t]));

/** Derived, never typed twice: routing through the approval gate depends on this set only. */
export const MUTATING_TOOLS: ReadonlySet<string> = new Set(TOOLS.filter((t) => t.mutating).map((t) => t.name));
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(TOOLS.filter((t) => !t.mutating).map((t) => t.name));

export const isMutating = (toolName: string): boolean => MUTATING_TOOLS.has(toolName);

/** Tools whose results hold nobody's personal data; every other tool's do. */
export const PUBLIC_DATA_TOOLS: ReadonlySet<string> = new Set(
  TOOLS.filter((t) => !t.mutating && t.publicData).map((t) => t.name),
);

export function getTool(name: string): ToolContract | undefined {
  return BY_NAME.get(name);
}

export type ParsedArgs =
  | { ok: true; args: Record<string, unknown>; canonical: string; hash: string }
  | { ok: false; issues: { path: string; message: string }[] };

/**
 * Validate raw arguments with the tool's own schema and return the canonical form (defaults
 * applied, unknown keys dropped) and its hash: what an approval is granted for.
 */
export function parseToolArgs(toolName: string, raw: unknown): ParsedArgs {
  const tool = BY_NAME.get(toolName);
  if (!tool) return { ok: false, issues: [{ path: '', message: `unknown tool "${toolName}"` }] };
  // Text Postgres can't store (NUL, lone surrogates) is cleaned before validation, so the canonical
  // arguments an approval is granted for are the ones the write will store.
  const result = (tool.input as z.ZodType).safeParse(storableJson(raw ?? {}));
  if (!result.success) {
    return {
      ok: false,
      issues: result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    };
  }
  const args = JSON.parse(canonicalJson(result.data)) as Record<string, unknown>;
  return { ok: true, args, canonical: canonicalJson(args), hash: hashArgs(args) };
}

/**
 * What a write request is about, for deciding whether a new proposal replaces a pending one of
 * the same tool in the same thread ("actually make it 3pm": the same booking; "sorry, make that
 * james.two@…": the same field). Two proposals replace each other only when their targets
 * overlap; `null` means a request of this tool never replaces another (two tickets, two emails
 * are two requests). Decided from the arguments, never from the tool name alone.
 */
export function requestTargets(tool: string, args: Record<string, unknown>): string[] | null {
  switch (tool) {
    case 'book_slot':
      return [`service:${String(args.service_id)}`];
    case 'reschedule_booking':
    case 'cancel_booking':
      // Moving and cancelling the same booking are one request changed ("actually, just cancel it").
      return [`booking:${String(args.booking_id)}`];
    case 'update_customer':
      return Object.keys((args.changes as Record<string, unknown> | undefined) ?? {}).map((k) => `field:${k}`);
    default:
      return null;
  }
}

/** The tools that change an existing booking in place, by the kind of change; args.booking_id names it. */
export const BOOKING_CHANGE_TOOL = {
  reschedule: 'reschedule_booking',
  cancel: 'cancel_booking',
} as const satisfies Record<ChangeKind, ToolName>;
export const BOOKING_CHANGE_TOOLS: ReadonlySet<string> = new Set(Object.values(BOOKING_CHANGE_TOOL));

/** Which kind of booking change a tool makes, if it makes one. */
export const changeKindOf = (tool: string): ChangeKind | undefined =>
  (Object.keys(BOOKING_CHANGE_TOOL) as ChangeKind[]).find((k) => BOOKING_CHANGE_TOOL[k] === tool);

/** Does `next` replace `pending` (same tool, or both changing one booking; overlapping targets)? */
export function replacesRequest(
  next: { tool: string; args: Record<string, unknown> },
  pending: { tool: string; args: Record<string, unknown> },
): boolean {
  if (next.tool !== pending.tool && !(BOOKING_CHANGE_TOOLS.has(next.tool) && BOOKING_CHANGE_TOOLS.has(pending.tool)))
    return false;
  const a = requestTargets(next.tool, next.args);
  const b = requestTargets(pending.tool, pending.args);
  return Boolean(a && b && a.some((t) => b.includes(t)));
}
