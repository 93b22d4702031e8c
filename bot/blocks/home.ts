import type { Approval } from '../../agent/approvals/ledger.js';
import { ACTIONS, VIEWS } from '../ids.js';
import { approverMention, escapeText } from '../escape.js';
import { verbOf } from './card.js';
import { age, when } from './format.js';
import { fit, mrkdwn, plain, type Block, type HomeView, type ModalView } from './types.js';
import { BUSINESS } from '../../schema/business/profile.js';

export type HomeApproval = Pick<
  Approval,
  'id' | 'tool' | 'status' | 'customer_id' | 'created_at' | 'expires_at' | 'approver' | 'decided_at' | 'decision_reason'
> & {
  customer_name: string | null;
};

const customerOf = (a: HomeApproval) =>
  a.customer_name
    ? `${escapeText(a.customer_name)} (\`${escapeText(a.customer_id ?? '')}\`)`
    : a.customer_id
      ? `\`${escapeText(a.customer_id)}\``
      : '_not linked_';

const DECISION_WORD: Partial<Record<Approval['status'], string>> = {
  approved: '✅ approved',
  executing: '✅ approved',
  executed: '✅ approved, done',
  failed: '⚠️ approved, failed',
  rejected: '❌ rejected',
};

/** App Home for managers: what waits (oldest first), what was decided lately, and the link form. */
export function managerHome(p: {
  pending: HomeApproval[];
  pendingTotal: number;
  decided: HomeApproval[];
  now: Date;
  timeZone: string;
  linkedUsers: number;
}): HomeView {
  const blocks: Block[] = [
    { type: 'header', text: plain(`${BUSINESS.shortName} approvals`) },
    {
      type: 'actions',
      block_id: 'home_actions',
      elements: [
        { type: 'button', action_id: ACTIONS.homeRefresh, text: plain('Refresh') },
        { type: 'button', action_id: ACTIONS.homeLink, text: plain('Link a Slack user to a customer') },
      ],
    },
    {
      type: 'section',
      text: mrkdwn(
        `*Waiting for a decision (${p.pendingTotal})*: oldest first. Decide on the cards in the managers channel.`,
      ),
    },
  ];
  if (!p.pending.length) blocks.push({ type: 'context', elements: [mrkdwn('Nothing is waiting. 🎉')] });
  for (const a of p.pending) {
    blocks.push({
      type: 'section',
      text: mrkdwn(
        `*${escapeText(verbOf(a.tool))}* for ${customerOf(a)}\n` +
          `Waiting ${age(a.created_at, p.now)} · expires ${escapeText(when(a.expires_at, p.timeZone))}\n` +
          `\`${a.id}\``,
      ),
    });
  }
  if (p.pendingTotal > p.pending.length)
    blocks.push({ type: 'context', elements: [mrkdwn(`…and ${p.pendingTotal - p.pending.length} more.`)] });
  blocks.push({ type: 'divider' }, { type: 'section', text: mrkdwn('*Latest decisions*') });
  if (!p.decided.length) blocks.push({ type: 'context', elements: [mrkdwn('No decisions yet.')] });
  for (const a of p.decided) {
    const reason = a.status === 'rejected' && a.decision_reason ? `: “${escapeText(fit(a.decision_reason, 120))}”` : '';
    blocks.push({
      type: 'section',
      text: mrkdwn(
        `*${escapeText(verbOf(a.tool))}* for ${customerOf(a)}: ${DECISION_WORD[a.status] ?? escapeText(a.status)} ` +
          `by ${approverMention(a.approver)}${reason}\n` +
          `${a.decided_at ? escapeText(when(a.decided_at, p.timeZone)) : ''}`,
      ),
    });
  }
  blocks.push(
    { type: 'divider' },
    {
      type: 'context',
      elements: [
        mrkdwn(
          `${p.linkedUsers} Slack users are linked to customer records. ` +
            'Only a link made here (by a manager) tells the agent who someone is.',
        ),
      ],
    },
  );
  return { type: 'home', blocks };
}

/** App Home for everyone else: what the agent does, and whether this Slack user is linked. */
export function customerHome(p: { linkedName: string | null; supportChannel?: string }): HomeView {
  const where = p.supportChannel ? `<#${p.supportChannel}>` : 'the support channel';
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: plain(BUSINESS.name) },
      {
        type: 'section',
        text: mrkdwn(
          `Hi! Ask us anything in ${where} or send me a direct message: ` +
            "prices, what's included, availability, your bookings.\n" +
            'I can also book a visit, update your details, open a ticket or email you. ' +
            'Every change is checked and approved by someone on our team first, and I tell you here when it is done.',
        ),
      },
      {
        type: 'context',
        elements: [
          mrkdwn(
            p.linkedName
              ? `Your Slack account is linked to the customer record of ${escapeText(p.linkedName)}.`
              : 'Your Slack account is not linked to a customer record yet, so I can answer general questions only. ' +
                  'Ask our team to link it.',
          ),
        ],
      },
    ],
  };
}

export const LINK_USER_BLOCK = 'slack_user';
export const LINK_CUSTOMER_BLOCK = 'customer';
/** The confirmation an existing link needs: ticked, the link is moved (or added to) as warned. */
export const LINK_CONFIRM_BLOCK = 'relink';
export const RELINK = 'relink';

/** The link form. `userPicker: 'text'` only where a workspace can't offer a users_select. */
export function linkModal(p: {
  userPicker: 'users_select' | 'text';
  customers: { id: string; name: string }[];
}): ModalView {
  const userElement =
    p.userPicker === 'users_select'
      ? { type: 'users_select', action_id: 'value', placeholder: plain('Choose a person') }
      : {
          type: 'plain_text_input',
          action_id: 'value',
          max_length: 40,
          placeholder: plain('Slack user id, e.g. U01CUS0001'),
        };
  const customerElement =
    p.customers.length && p.customers.length <= 100
      ? {
          type: 'static_select',
          action_id: 'value',
          placeholder: plain('Choose a customer'),
          options: p.customers.map((c) => ({ text: plain(fit(`${c.name} (${c.id})`, 75)), value: c.id })),
        }
      : {
          type: 'plain_text_input',
          action_id: 'value',
          max_length: 40,
          placeholder: plain('Customer id, e.g. cus_001'),
        };
  return {
    type: 'modal',
    callback_id: VIEWS.link,
    title: plain('Link a Slack user'),
    submit: plain('Link'),
    close: plain('Cancel'),
    blocks: [
      {
        type: 'section',
        text: mrkdwn(
          'The agent acts for a Slack user only on the customer record linked here. Check who they are first.',
        ),
      },
      { type: 'input', block_id: LINK_USER_BLOCK, label: plain('Slack user'), element: userElement },
      { type: 'input', block_id: LINK_CUSTOMER_BLOCK, label: plain('Customer'), element: customerElement },
      {
        type: 'input',
        block_id: LINK_CONFIRM_BLOCK,
        optional: true,
        label: plain('If either is linked already'),
        hint: plain('You are told first what an existing link is; nothing is relinked until you confirm here.'),
        element: {
          type: 'checkboxes',
          action_id: 'value',
          options: [
            {
              text: plain('Yes, relink'),
              value: RELINK,
              description: plain("Moves the person's link; others linked to the customer stay linked."),
            },
          ],
        },
      },
    ] as Block[],
  };
}
