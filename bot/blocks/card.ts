import type { Approval } from '../../agent/approvals/ledger.js';
import { getTool } from '../../schema/tools/catalog.js';
import { ACTIONS } from '../ids.js';
import { approverMention, clip, escapeText, quote, quoteChunks } from '../escape.js';
import { upcomingBookingsBlock } from './card-bookings.js';
import { bookingChangeSummary, cancelBlocks, rescheduleBlocks } from './card-booking-change.js';
import type { CardContext } from './card-context.js';
import { field, sectionsOfFields } from './card-fields.js';
import { cardWarnings, sameEmail, warningBlock } from './card-warnings.js';
import { flatten, humanize, labelOf, money, showValue, when } from './format.js';
import { fit, mrkdwn, plain, type Block } from './types.js';

export type { BookingRow, CardContext, CustomerRow, ServiceRow } from './card-context.js';

const STATUS_WORD: Record<Approval['status'], string> = {
  pending: 'waiting for approval',
  approved: 'approved',
  executing: 'approved',
  executed: 'done',
  failed: 'failed',
  rejected: 'rejected',
  expired: 'expired',
  superseded: 'superseded',
  withdrawn: 'withdrawn',
};

const STATUS_ICON: Record<Approval['status'], string> = {
  pending: '🔔',
  approved: '✅',
  executing: '✅',
  executed: '✅',
  failed: '⚠️',
  rejected: '❌',
  expired: '⌛',
  superseded: '↪️',
  withdrawn: '↩️',
};

export const verbOf = (tool: string) => getTool(tool)?.verb ?? humanize(tool);

const customerLabel = (a: Approval, ctx: CardContext) =>
  ctx.customer
    ? `${escapeText(ctx.customer.name)} (\`${escapeText(ctx.customer.id)}\`)`
    : a.customer_id
      ? `\`${escapeText(a.customer_id)}\``
      : '_not linked_';

function whereLine(ctx: CardContext): string {
  const c = ctx.conversationChannel;
  if (!c) return '';
  return c.startsWith('D') ? ' · in a direct message' : ` · in <#${c}>`;
}

function addressText(a: Record<string, unknown> | null | undefined): string {
  if (!a) return '';
  return [a.line1, a.unit, a.city, a.postal_code].filter((x) => x !== undefined && x !== null && x !== '').join(', ');
}

function currentOf(customer: CardContext['customer'] | Record<string, unknown>, key: string): unknown {
  if (!customer) return undefined;
  const c = customer as Record<string, unknown>;
  if (key === 'address') {
    // A CustomerRow keeps the address in columns; a tool result (before/after) nests it.
    if ('address_line1' in c)
      return c.address_line1
        ? { line1: c.address_line1, unit: c.address_unit, city: c.city, postal_code: c.postal_code }
        : null;
    return c.address;
  }
  return c[key];
}

/** update_customer: one line per changed field, "Now" (the record) and "New" (the proposal). */
function updateCustomerBlocks(a: Approval, ctx: CardContext): Block[] {
  const changes = (a.args.changes ?? {}) as Record<string, unknown>;
  // Once executed, the record already holds the new values: show the stored "before" instead.
  const before =
    a.status === 'executed' && a.result && typeof a.result === 'object' && 'before' in (a.result as object)
      ? ((a.result as { before: Record<string, unknown> }).before ?? null)
      : ctx.customer;
  const blocks: Block[] = [];
  for (const [key, next] of Object.entries(changes)) {
    if (next === undefined) continue;
    const now = currentOf(before, key);
    let text: string;
    if (key === 'address') {
      text =
        `*Address*\nNow: ${showValue(addressText(now as Record<string, unknown>) || null)}\n` +
        `New: *${showValue(addressText(next as Record<string, unknown>))}*`;
    } else if (key === 'preferences' && next && typeof next === 'object') {
      const current = (now ?? {}) as Record<string, unknown>;
      const lines = Object.entries(next as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `• ${humanize(k)}: ${showValue(current[k], 200)} → *${showValue(v, 200)}*`);
      text = `*Preferences* (only these change)\n${lines.join('\n')}`;
    } else {
      text = `*${humanize(key)}*\nNow: ${showValue(now, 1200)}\nNew: *${showValue(next, 1200)}*`;
    }
    blocks.push({ type: 'section', text: mrkdwn(clip(text, 2990)) });
  }
  return blocks;
}

function bookSlotBlocks(a: Approval, ctx: CardContext): Block[] {
  const args = a.args as { service_id?: string; start_time?: string; notes?: string };
  const service = ctx.services.find((s) => s.id === args.service_id);
  const fields = [
    field(
      'Service',
      service ? `${escapeText(service.name)} (\`${escapeText(service.id)}\`)` : showValue(args.service_id),
    ),
    field(
      'When',
      args.start_time && !Number.isNaN(Date.parse(args.start_time))
        ? escapeText(when(args.start_time, ctx.timeZone))
        : showValue(args.start_time),
    ),
  ];
  if (service) {
    fields.push(
      field(
        'Duration',
        `${Math.floor(service.duration_minutes / 60)} h` +
          (service.duration_minutes % 60 ? ` ${service.duration_minutes % 60} min` : ''),
      ),
    );
    fields.push(field('Price', money(service.price_cents)));
  }
  const blocks = sectionsOfFields(fields);
  if (args.notes)
    blocks.push({ type: 'section', text: mrkdwn(`*Notes for the crew*\n${quote(args.notes, 2900 - 25)}`) });
  return blocks;
}

function sendEmailBlocks(a: Approval, ctx: CardContext): Block[] {
  const args = a.args as { to?: string; subject?: string; body?: string };
  const onFile = ctx.customer?.email ?? null;
  const fields = [];
  if (!args.to)
    fields.push(field('To', onFile ? `${showValue(onFile)} (address on file)` : '_no email address on file_'));
  else if (onFile && sameEmail(onFile, args.to)) fields.push(field('To', `${showValue(args.to)} (address on file)`));
  else fields.push(field('To', showValue(args.to)), field('On file', onFile ? showValue(onFile) : '_none_'));
  const blocks = sectionsOfFields([...fields, field('Subject', showValue(args.subject, 300))]);
  const chunks = quoteChunks(args.body ?? '', 2900);
  chunks.forEach((chunk, i) => blocks.push({ type: 'section', text: mrkdwn(i === 0 ? `*Body*\n${chunk}` : chunk) }));
  return blocks;
}

function createTicketBlocks(a: Approval): Block[] {
  const args = a.args as { subject?: string; priority?: string; category?: string; description?: string };
  const blocks = sectionsOfFields([
    field('Subject', showValue(args.subject, 300)),
    field('Priority', showValue(args.priority)),
    field('Category', showValue(args.category)),
  ]);
  quoteChunks(args.description ?? '', 2900).forEach((chunk, i) =>
    blocks.push({ type: 'section', text: mrkdwn(i === 0 ? `*Description*\n${chunk}` : chunk) }),
  );
  return blocks;
}

function genericBlocks(a: Approval): Block[] {
  const fields = [...flatten(a.args)]
    .filter(([p]) => p !== 'customer_id')
    .map(([p, v]) => field(escapeText(labelOf(p)), showValue(v, 1500)));
  return fields.length ? sectionsOfFields(fields) : [{ type: 'section', text: mrkdwn('_No arguments._') }];
}

export function argumentBlocks(a: Approval, ctx: CardContext): Block[] {
  switch (a.tool) {
    case 'update_customer':
      return updateCustomerBlocks(a, ctx);
    case 'book_slot':
      return bookSlotBlocks(a, ctx);
    case 'reschedule_booking':
      return rescheduleBlocks(a, ctx);
    case 'cancel_booking':
      return cancelBlocks(a, ctx);
    case 'send_email':
      return sendEmailBlocks(a, ctx);
    case 'create_ticket':
      return createTicketBlocks(a);
    default:
      return genericBlocks(a);
  }
}

/** Lines "• Label: original → edited" for what a manager changed before approving. */
export function editedLines(a: Approval): string[] {
  const before = flatten(a.args_original);
  const after = flatten(a.args);
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  return paths
    .filter((p) => JSON.stringify(before.get(p)) !== JSON.stringify(after.get(p)))
    .map((p) => `• ${escapeText(labelOf(p))}: ${showValue(before.get(p), 300)} → *${showValue(after.get(p), 300)}*`);
}

/** One line saying what the executed write did, from the tool's stored result. */
export function resultSummary(a: Approval, timeZone: string): string {
  const r = (a.result ?? {}) as Record<string, any>;
  switch (a.tool) {
    case 'create_ticket':
      return r.ticket
        ? `Ticket \`${escapeText(String(r.ticket.id))}\` opened (${escapeText(String(r.ticket.priority))} priority).`
        : 'Ticket opened.';
    case 'update_customer': {
      const changed = Array.isArray(r.changed_fields) ? (r.changed_fields as string[]) : [];
      return changed.length
        ? `Updated ${escapeText(changed.map(humanize).join(', ').toLowerCase())}.`
        : 'Nothing needed changing: the record already had these values.';
    }
    case 'send_email':
      return r.email_id
        ? `Email \`${escapeText(String(r.email_id))}\` ${escapeText(String(r.status ?? 'queued'))} ` +
            `to ${escapeText(String(r.to ?? ''))}.`
        : 'Email queued.';
    case 'book_slot':
      return r.booking
        ? `Booking \`${escapeText(String(r.booking.id))}\`: ${escapeText(String(r.booking.service_name ?? ''))}, ` +
            `${escapeText(when(r.booking.starts_at, timeZone))} (${escapeText(String(r.booking.crew ?? ''))}).`
        : 'Booked.';
    case 'reschedule_booking':
    case 'cancel_booking':
      return bookingChangeSummary(a, timeZone);
    default:
      return escapeText(clip(JSON.stringify(a.result ?? null), 500));
  }
}

/** Who decided, when, what they edited, and how it ended: the card after a decision. */
export function decisionText(a: Approval, timeZone: string): string {
  const who = approverMention(a.approver);
  const at = a.decided_at ? ` at ${escapeText(when(a.decided_at, timeZone))}` : '';
  const edits = editedLines(a);
  const editText = edits.length ? `\n*Edited before approval:*\n${edits.join('\n')}` : '';
  switch (a.status) {
    case 'approved':
    case 'executing':
      return `✅ *Approved* by ${who}${at}.${editText}\n_Running it now…_`;
    case 'executed':
      return `✅ *Approved* by ${who}${at}.${editText}\n*Done:* ${resultSummary(a, timeZone)}`;
    case 'failed':
      return (
        `⚠️ *Approved* by ${who}${at}.${editText}\n` +
        `*It failed:* ${escapeText(clip(a.error?.message ?? 'unknown error', 800))} Nothing was changed.`
      );
    case 'rejected':
      return (
        `❌ *Rejected* by ${who}${at}.\n*Reason given to the customer:*\n` + quote(a.decision_reason ?? '(none)', 2200)
      );
    case 'expired':
      return (
        `⌛ *Expired* at ${escapeText(when(a.expires_at, timeZone))} without a decision. ` +
        'Nothing was changed; the customer is told.'
      );
    case 'superseded':
      return `↪️ *Superseded*: the customer changed this request before anyone decided; see the newer card.`;
    case 'withdrawn':
      return (
        '↩️ *Withdrawn* by the customer before anyone decided' +
        (a.decision_reason ? `:\n${quote(a.decision_reason, 1500)}` : '.')
      );
    default:
      return '';
  }
}

/** The approval card in #managers: the same function draws it when posted and after every change. */
export function approvalCard(a: Approval, ctx: CardContext): { text: string; blocks: Block[] } {
  const verb = verbOf(a.tool);
  const pending = a.status === 'pending';
  const header = pending
    ? `${STATUS_ICON.pending} Approval needed: ${verb}`
    : `${STATUS_ICON[a.status]} ${verb} · ${STATUS_WORD[a.status]}`;
  const blocks: Block[] = [
    { type: 'header', text: plain(fit(header, 150)) },
    { type: 'section', text: mrkdwn(`*Customer:* ${customerLabel(a, ctx)}${whereLine(ctx)}`) },
  ];
  if (a.request_text)
    blocks.push({ type: 'section', text: mrkdwn(`*Their request:*\n${quote(a.request_text, 2900 - 20)}`) });
  const bookings = upcomingBookingsBlock(ctx);
  if (bookings) blocks.push(bookings);
  blocks.push({ type: 'divider' }, ...argumentBlocks(a, ctx));
  if (!pending)
    blocks.push({ type: 'divider' }, { type: 'section', text: mrkdwn(clip(decisionText(a, ctx.timeZone), 2990)) });
  blocks.push({
    type: 'context',
    elements: [
      mrkdwn(
        pending
          ? `⏳ Expires ${escapeText(when(a.expires_at, ctx.timeZone))} · approval \`${a.id}\``
          : `Proposed ${escapeText(when(a.created_at, ctx.timeZone))} · approval \`${a.id}\``,
      ),
    ],
  });
  const warnings = warningBlock(cardWarnings(a, ctx));
  if (warnings) blocks.push(warnings);
  if (pending) {
    blocks.push({
      type: 'actions',
      block_id: 'approval_actions',
      elements: [
        { type: 'button', action_id: ACTIONS.approve, style: 'primary', text: plain('Approve'), value: a.id },
        { type: 'button', action_id: ACTIONS.edit, text: plain('Edit'), value: a.id },
        { type: 'button', action_id: ACTIONS.reject, style: 'danger', text: plain('Reject'), value: a.id },
      ],
    });
  }
  const who = ctx.customer ? `${ctx.customer.name} (${ctx.customer.id})` : (a.customer_id ?? 'an unlinked user');
  const text = pending ? `Approval needed: ${verb} for ${who}` : `${verb} for ${who}: ${STATUS_WORD[a.status]}`;
  return { text: escapeText(clip(text, 300)), blocks };
}
