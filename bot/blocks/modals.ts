import type { Approval } from '../../agent/approvals/ledger.js';
import { getTool } from '../../schema/tools/catalog.js';
import { VIEWS } from '../ids.js';
import { escapeText } from '../escape.js';
import { verbOf, type CardContext } from './card.js';
import { money, showValue, when } from './format.js';
import { formFields, inputBlocks, type FormField } from './schema-form.js';
import { fit, mrkdwn, plain, type Block, type ModalView } from './types.js';

/** What every decision modal carries: only the approval id. Everything else is read again from Postgres. */
export interface DecisionMetadata {
  approval_id: string;
}

export function parseMetadata(raw: string | undefined): DecisionMetadata | undefined {
  try {
    const v = JSON.parse(raw ?? '') as { approval_id?: unknown };
    return typeof v.approval_id === 'string' ? { approval_id: v.approval_id } : undefined;
  } catch {
    return undefined;
  }
}

/** Arguments a manager can't edit: the approval belongs to its conversation's customer. */
export const FIXED_PATHS = ['customer_id'];

/** The edit form of a tool, from its zod input schema (plus a service picker for `service_id`). */
export function editFields(tool: string, ctx: Pick<CardContext, 'services'>): FormField[] {
  const def = getTool(tool);
  if (!def) return [];
  const services = [...ctx.services].sort((a, b) => a.name.localeCompare(b.name));
  return formFields(def.input, {
    skip: FIXED_PATHS,
    overrides: services.length
      ? {
          service_id: {
            kind: 'select',
            options: services.map((s) => ({ value: s.id, label: `${s.name} · ${money(s.price_cents)}` })),
          },
        }
      : {},
  });
}

/** "Now: …" placeholders: the customer's current values next to the fields of update_customer. */
function placeholders(a: Approval, ctx: CardContext): Record<string, string> {
  const out: Record<string, string> = {};
  const c = ctx.customer;
  if (a.tool === 'update_customer' && c) {
    const now = (v: unknown) => (v === null || v === undefined || v === '' ? 'Now: (none)' : `Now: ${String(v)}`);
    out['changes.name'] = now(c.name);
    out['changes.email'] = now(c.email);
    out['changes.phone'] = now(c.phone);
    out['changes.notes'] = now(c.notes);
    out['changes.address.line1'] = now(c.address_line1);
    out['changes.address.unit'] = now(c.address_unit);
    out['changes.address.city'] = now(c.city);
    out['changes.address.postal_code'] = now(c.postal_code);
    for (const k of ['contact', 'preferred_time', 'eco_products', 'pets']) {
      const v = c.preferences?.[k];
      out[`changes.preferences.${k}`] = now(typeof v === 'boolean' ? (v ? 'yes' : 'no') : v);
    }
  }
  return out;
}

/** The time a booking tool proposes (book_slot's start, reschedule_booking's new start). */
function proposedTime(a: Approval): string | undefined {
  const t = a.tool === 'book_slot' ? a.args.start_time : a.tool === 'reschedule_booking' ? a.args.new_start_time : '';
  return typeof t === 'string' && !Number.isNaN(Date.parse(t)) ? t : undefined;
}

export function editModal(a: Approval, ctx: CardContext): ModalView {
  const fields = editFields(a.tool, ctx);
  const who = ctx.customer ? `${escapeText(ctx.customer.name)} (\`${ctx.customer.id}\`)` : showValue(a.customer_id);
  const intro: Block[] = [
    {
      type: 'section',
      text: mrkdwn(
        `*${escapeText(verbOf(a.tool))}* for ${who}.\n` +
          'Change what needs changing, then approve: exactly these values will be used.',
      ),
    },
  ];
  const proposed = proposedTime(a);
  if (proposed) {
    intro.push({
      type: 'context',
      elements: [
        mrkdwn(
          `Proposed time: ${escapeText(when(proposed, ctx.timeZone))}. Day and time are the business's ` +
            `(${escapeText(ctx.timeZone)}); a time that isn't free is refused here, with free times nearby.`,
        ),
      ],
    });
  }
  if (a.tool === 'update_customer') {
    intro.push({ type: 'context', elements: [mrkdwn('Leave a field empty to keep it as it is.')] });
  }
  return {
    type: 'modal',
    callback_id: VIEWS.edit,
    private_metadata: JSON.stringify({ approval_id: a.id } satisfies DecisionMetadata),
    title: plain('Edit and approve'),
    submit: plain('Approve'),
    close: plain('Cancel'),
    blocks: [...intro, ...inputBlocks(fields, a.args, placeholders(a, ctx), { timeZone: ctx.timeZone })],
  };
}

export const REASON_BLOCK = 'reason';

export function rejectModal(a: Approval, ctx: CardContext): ModalView {
  const who = ctx.customer ? escapeText(ctx.customer.name) : 'the customer';
  return {
    type: 'modal',
    callback_id: VIEWS.reject,
    private_metadata: JSON.stringify({ approval_id: a.id } satisfies DecisionMetadata),
    title: plain('Reject request'),
    submit: plain('Reject'),
    close: plain('Cancel'),
    blocks: [
      { type: 'section', text: mrkdwn(`Reject *${escapeText(verbOf(a.tool))}* for ${who}. Nothing will be changed.`) },
      {
        type: 'input',
        block_id: REASON_BLOCK,
        label: plain('Reason (the customer will read it)'),
        element: {
          type: 'plain_text_input',
          action_id: 'value',
          multiline: true,
          max_length: 2000,
          placeholder: plain('e.g. That slot was just taken; could you pick another time?'),
        },
      },
    ],
  };
}

/** A modal that only says something (the approval was decided meanwhile, you are not a manager…). */
export function noticeModal(title: string, text: string): ModalView {
  return {
    type: 'modal',
    title: plain(fit(title, 24)),
    close: plain('Close'),
    blocks: [{ type: 'section', text: mrkdwn(text) }],
  };
}
