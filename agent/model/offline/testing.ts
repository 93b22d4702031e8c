/** Test helpers for the offline planner: hand-built PlanContexts and conversations, no database. */
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { z } from 'zod';
import { BookSlotInput } from '../../../schema/tools/book-slot.js';
import { CancelBookingInput, RescheduleBookingInput } from '../../../schema/tools/booking-change.js';
import { CreateTicketInput } from '../../../schema/tools/create-ticket.js';
import { LookupCustomerInput } from '../../../schema/tools/lookup-customer.js';
import { SearchKnowledgeBaseInput } from '../../../schema/tools/search-knowledge-base.js';
import { SendEmailInput } from '../../../schema/tools/send-email.js';
import { UpdateCustomerInput } from '../../../schema/tools/update-customer.js';
import { KB_ARTICLES } from '../../../schema/seed/kb-articles.js';
import { SERVICES } from '../../../schema/seed/services.js';
import { READ_ONLY_TOOLS } from '../../../schema/tools/catalog.js';
import {
  approvalEventMessage,
  PLAN_CONTEXT_KEY,
  WITHDRAW_TOOL,
  WithdrawArgsSchema,
  type ApprovalEvent,
  type PendingApproval,
  type PlanContext,
} from '../../plan-context.js';
import { planTurn, toAIMessage, type PlannedTurn } from './planner.js';

export const NOW = '2026-12-07T14:00:00.000Z'; // Monday 9:00 AM EST
export const TZ = 'America/New_York';

/** The seed's whole catalogue, as a plan context carries it. */
export const SEED_SERVICES: PlanContext['services'] = SERVICES.map(
  ({ id, name, category, duration_minutes, price_cents, description }) => ({
    id,
    name,
    category,
    duration_minutes,
    price_cents,
    description,
  }),
);

export const TEST_SERVICES: PlanContext['services'] = [
  {
    id: 'svc_standard_clean',
    name: 'Standard Home Cleaning',
    category: 'cleaning',
    duration_minutes: 180,
    price_cents: 14900,
  },
  { id: 'svc_deep_clean', name: 'Deep Cleaning', category: 'cleaning', duration_minutes: 240, price_cents: 28900 },
  {
    id: 'svc_move_out_clean',
    name: 'Move-In/Move-Out Cleaning',
    category: 'cleaning',
    duration_minutes: 240,
    price_cents: 34900,
  },
  {
    id: 'svc_window_clean',
    name: 'Interior Window Cleaning',
    category: 'cleaning',
    duration_minutes: 120,
    price_cents: 12900,
  },
  { id: 'svc_handyman_hour', name: 'Handyman Hour', category: 'repair', duration_minutes: 60, price_cents: 9500 },
  { id: 'svc_faucet_repair', name: 'Faucet Repair', category: 'repair', duration_minutes: 90, price_cents: 14500 },
  { id: 'svc_tv_mount', name: 'TV Wall Mounting', category: 'install', duration_minutes: 90, price_cents: 15900 },
  {
    id: 'svc_smart_thermostat_install',
    name: 'Smart Thermostat Installation',
    category: 'install',
    duration_minutes: 90,
    price_cents: 18900,
  },
];

export const MARIA: NonNullable<PlanContext['customer']> = {
  id: 'cus_001',
  name: 'Maria Gonzalez',
  email: 'maria.gonzalez@example.com',
  phone: '(555) 201-3344',
};

export const ARTICLES = {
  cleaningPrices: {
    id: 'kb-pricing-02',
    title: 'Cleaning prices',
    topic: 'pricing',
    snippet:
      'Deep Cleaning is $289 and takes about 4 hours. On top of a standard cleaning we do baseboards, door frames, ' +
      'cabinet fronts, the inside of the oven and microwave, behind movable furniture, and descaling of showers ' +
      'and taps. Many customers book one before starting a recurring plan.',
    score: 0.82,
  },
  saturdays: {
    id: 'kb-hours-and-availability-05',
    title: 'Saturday visits',
    topic: 'hours-and-availability',
    snippet:
      'We work Saturdays from 9:00 a.m. to 2:00 p.m. All Saturday visits use a single arrival window, ' +
      '9:00–11:00 a.m., so the work can finish by 2:00 p.m.',
    score: 0.77,
  },
  refunds: {
    id: 'kb-payment-and-refunds-04',
    title: 'Refunds',
    topic: 'payment-and-refunds',
    snippet:
      'If something went wrong with a visit, tell us within 48 hours and we will make it right. ' +
      'When a refund is due, we issue it within 2 business days to the card you paid with, ' +
      'and your bank usually shows it within 5 to 10 business days.',
    score: 0.7,
  },
  holidays: {
    id: 'kb-hours-and-availability-04',
    title: 'Holiday hours',
    topic: 'hours-and-availability',
    snippet:
      'We are closed, with no visits and no phone support, on New Year’s Day, Memorial Day, ' +
      'Independence Day (July 4), Labor Day, Thanksgiving Day and Christmas Day.',
    score: 0.2,
  },
} satisfies Record<string, PlanContext['retrieved'][number]>;

let articleCount = 0;

/** A synthetic help-centre hit, with an id of its own, as a retriever would return it. */
export function article(title: string, snippet: string, score = 1): PlanContext['retrieved'][number] {
  return { id: `kb-test-${++articleCount}`, title, topic: 'test-topic', snippet, score };
}

/** A booking as lookup_customer lists it under upcoming_bookings. */
export type Upcoming = {
  id: string;
  service_id: string;
  service_name: string;
  starts_at: string;
  price_cents?: number;
};

/** A booking of a seed service as lookup_customer lists it, its name taken from the catalogue. */
export function upcoming(id: string, serviceId: string, startsAt: string, priceCents?: number): Upcoming {
  const service = SERVICES.find((s) => s.id === serviceId);
  if (!service) throw new Error(`no seed service ${serviceId}`);
  return {
    id,
    service_id: serviceId,
    service_name: service.name,
    starts_at: startsAt,
    ...(priceCents !== undefined ? { price_cents: priceCents } : {}),
  };
}

/** A TV mounting on Thursday Dec 10 at 2 PM, as lookup_customer lists it. */
export const TV_THURSDAY = upcoming('BKG-1006', 'svc_tv_mount', '2026-12-10T14:00:00-05:00');

/** lookup_customer's answer: Maria found (her record as `customer` gives it) with these upcoming bookings. */
export const lookupFound = (bookings: Upcoming[], customer: Record<string, unknown> = { ...MARIA }) => ({
  status: 'found',
  customer,
  upcoming_bookings: bookings.map((b) => ({ status: 'confirmed', crew: 'crew-a', ...b })),
  open_tickets: [],
  candidates: [],
});

export function makeContext(over: Partial<PlanContext> = {}): PlanContext {
  return {
    now: NOW,
    timeZone: TZ,
    customer: MARIA,
    retrieved: [],
    pending: [],
    services: TEST_SERVICES,
    summary: '',
    ...over,
  };
}

/** A plan context with the seed's whole catalogue, the services a customer can name in the evals. */
export const seedContext = (over: Partial<PlanContext> = {}): PlanContext =>
  makeContext({ services: SEED_SERVICES, ...over });

/** The names of a planned turn's calls, in order. */
export const callNames = (t: { calls: { name: string }[] }): string[] => t.calls.map((c) => c.name);

/** The writes a planned turn proposes: its calls but the reads and a withdrawal. */
/** The arguments of the planned call to `name`, if the turn makes one. */
export const argsOf = (t: { calls: { name: string; args: Record<string, unknown> }[] }, name: string) =>
  t.calls.find((c) => c.name === name)?.args;

export const writeNames = (t: { calls: { name: string }[] }): string[] =>
  callNames(t).filter((n) => !READ_ONLY_TOOLS.has(n) && n !== WITHDRAW_TOOL);

export function system(ctx: PlanContext): SystemMessage {
  return new SystemMessage({ content: 'system prompt', additional_kwargs: { [PLAN_CONTEXT_KEY]: ctx } });
}

export const customer = (text: string) => new HumanMessage(text);

export function aiCalls(calls: { id: string; name: string; args: Record<string, unknown> }[], content = ''): AIMessage {
  return new AIMessage({ content, tool_calls: calls.map((c) => ({ ...c, type: 'tool_call' as const })) });
}

export function toolResult(callId: string, name: string, body: unknown, isError = false): ToolMessage {
  return new ToolMessage({
    content: JSON.stringify(body),
    tool_call_id: callId,
    name,
    status: isError ? 'error' : 'success',
  });
}

export const approvalEvent = (e: ApprovalEvent) => approvalEventMessage(e);

export function pendingBooking(
  over: Partial<PendingApproval> & { args?: Record<string, unknown> } = {},
): PendingApproval {
  return {
    approval_id: 'apr_1',
    tool: 'book_slot',
    args: { customer_id: 'cus_001', service_id: 'svc_deep_clean', start_time: '2026-12-08T10:00:00-05:00' },
    tool_call_id: 'call_prev_1',
    expires_at: '2026-12-08T14:00:00.000Z',
    ...over,
  };
}

/** Plan one turn: the system message, any earlier messages, then `last` (a customer text or a message). */
export function plan(ctx: PlanContext, ...window: (BaseMessage | string)[]): PlannedTurn {
  return planTurn([system(ctx), ...window.map((m) => (typeof m === 'string' ? customer(m) : m))]);
}

export function planMessage(ctx: PlanContext, ...window: (BaseMessage | string)[]): AIMessage {
  const messages = [system(ctx), ...window.map((m) => (typeof m === 'string' ? customer(m) : m))];
  return toAIMessage(planTurn(messages), messages, 'thread-test');
}

/** Our turn on `first`, which must ask rather than call a tool, then the planner's turn on their answer `second`. */
export function afterOurQuestion(ctx: PlanContext, first: string, second: string): PlannedTurn {
  const asked = planMessage(ctx, first);
  if (asked.tool_calls?.length) throw new Error(`our turn on "${first}" called ${asked.tool_calls[0]!.name}`);
  return plan(ctx, first, asked, second);
}

const SCHEMAS: Record<string, z.ZodType> = {
  search_knowledge_base: SearchKnowledgeBaseInput,
  lookup_customer: LookupCustomerInput,
  create_ticket: CreateTicketInput,
  update_customer: UpdateCustomerInput,
  send_email: SendEmailInput,
  book_slot: BookSlotInput,
  reschedule_booking: RescheduleBookingInput,
  cancel_booking: CancelBookingInput,
  [WITHDRAW_TOOL]: WithdrawArgsSchema,
};

type ParseToolArgs = (
  name: string,
  raw: unknown,
) => { ok: true } | { ok: false; issues: { path: string; message: string }[] };
let registry: Promise<ParseToolArgs | undefined> | undefined;

/** The registry's parseToolArgs when it loads (other engineers may be mid-change), else undefined. */
export function loadRegistry(): Promise<ParseToolArgs | undefined> {
  registry ??= import('../../../schema/tools/catalog.js').then(
    (m) => m.parseToolArgs as ParseToolArgs,
    () => undefined,
  );
  return registry;
}

/** Validation issues of a planned call against the tool's own zod schema (and the registry, when given). */
export function callIssues(name: string, args: unknown, parseToolArgs?: ParseToolArgs): string[] {
  const schema = SCHEMAS[name];
  if (!schema) return [`unknown tool ${name}`];
  const issues: string[] = [];
  const r = schema.safeParse(args);
  if (!r.success) issues.push(...r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  if (name === 'send_email' && args && typeof args === 'object' && 'to' in args)
    issues.push('send_email must not set `to` in a customer conversation');
  if (parseToolArgs && name !== WITHDRAW_TOOL) {
    const p = parseToolArgs(name, args);
    if (!p.ok) issues.push(...p.issues.map((i) => `registry ${i.path}: ${i.message}`));
  }
  return issues;
}

/** The help centre's own articles, as the search returns them (whole bodies as snippets, best first). */
export function seedArticles(...ids: string[]): PlanContext['retrieved'] {
  return ids.map((id, i) => {
    const a = KB_ARTICLES.find((x) => x.id === id);
    if (!a) throw new Error(`no seed article ${id}`);
    return { id, title: a.title, topic: a.topic, snippet: a.body, score: 1 - i / 10 };
  });
}

/** The planner's turn on `text` and, when it looks the customer up, its turn after a lookup showing `bookings`. */
export function afterLookup(ctx: PlanContext, text: string, bookings: Upcoming[]): PlannedTurn {
  const window: BaseMessage[] = [system(ctx), customer(text)];
  const first = planTurn(window);
  if (first.calls.length !== 1 || first.calls[0]!.name !== 'lookup_customer') return first;
  const ai = toAIMessage(first, window, 'thread-test');
  return planTurn([...window, ai, toolResult(ai.tool_calls![0]!.id!, 'lookup_customer', lookupFound(bookings))]);
}

/** The window up to our reply after a lookup that found `body`, when the planner's first turn on `text` looks up. */
function lookedUp(ctx: PlanContext, text: string, body: unknown): BaseMessage[] {
  const window: BaseMessage[] = [system(ctx), customer(text)];
  const first = planTurn(window);
  if (first.calls.length !== 1 || first.calls[0]!.name !== 'lookup_customer')
    throw new Error(`our turn on "${text}" called ${first.calls.map((c) => c.name).join(', ') || 'nothing'}`);
  const ai = toAIMessage(first, window, 'thread-test');
  return [...window, ai, toolResult(ai.tool_calls![0]!.id!, 'lookup_customer', body)];
}

/** The planner's turn after the lookup finds `record` on file (the address, the notes) and no bookings. */
export function afterRecord(ctx: PlanContext, text: string, record: Record<string, unknown>): PlannedTurn {
  return planTurn(
    lookedUp(ctx, text, { status: 'found', customer: { id: ctx.customer?.id, ...record }, upcoming_bookings: [] }),
  );
}

/** Our reply after a lookup showing `bookings`, then the planner's turn on the customer's `answer` to it. */
export function answerAfterLookup(ctx: PlanContext, text: string, bookings: Upcoming[], answer: string): PlannedTurn {
  const looked = lookedUp(ctx, text, lookupFound(bookings));
  const ours = toAIMessage(planTurn(looked), looked, 'thread-test');
  return planTurn([...looked, ours, customer(answer)]);
}
