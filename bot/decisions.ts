import type { WebClient } from '@slack/web-api';
import { LedgerError, type Approval } from '../agent/approvals/ledger.js';
import { when } from './blocks/format.js';
import { noticeModal } from './blocks/modals.js';
import type { ModalView } from './blocks/types.js';
import type { BotDeps } from './deps.js';
import { approverMention, escapeText } from './escape.js';
import { tellPrivately } from './replies.js';
import { BUSINESS } from '../schema/business/profile.js';

export const NOT_A_MANAGER =
  `Only ${BUSINESS.shortName} managers can approve, edit or reject requests. ` + 'Nothing was changed.';
export const NOT_FOUND =
  "I can't find that approval (it may have been removed, or this card is out of date). Nothing was changed.";

const DONE_WORD: Partial<Record<Approval['status'], string>> = {
  approved: 'approved',
  executing: 'approved',
  executed: 'approved',
  failed: 'approved',
  rejected: 'rejected',
};

/** Why a decision can't be made any more, in words for the manager who tried. */
export function notPendingText(a: Approval, timeZone: string): string {
  const at = a.decided_at ? ` at ${escapeText(when(a.decided_at, timeZone))}` : '';
  switch (a.status) {
    case 'pending':
    case 'expired':
      return (
        `This request expired at ${escapeText(when(a.expires_at, timeZone))} without a decision. ` +
        'Nothing was changed.'
      );
    case 'superseded':
      return (
        'The customer changed this request before anyone decided; decide on the newer card instead. ' +
        'Nothing was changed.'
      );
    case 'withdrawn':
      return 'The customer withdrew this request before anyone decided. Nothing was changed.';
    default:
      return (
        `This request was already ${DONE_WORD[a.status] ?? a.status} by ${approverMention(a.approver)}${at}. ` +
        'Nothing else was changed.'
      );
  }
}

export function ledgerErrorText(err: LedgerError, timeZone: string): string {
  if (err.code === 'not_found') return NOT_FOUND;
  if ((err.code === 'already_decided' || err.code === 'expired') && err.approval)
    return notPendingText(err.approval, timeZone);
  if (err.code === 'invalid_arguments')
    return (
      'Those values are not valid: ' +
      escapeText((err.issues ?? []).map((i) => `${i.path || 'arguments'}: ${i.message}`).join('; ')) +
      '. Nothing was changed.'
    );
  return `${escapeText(err.message)} Nothing was changed.`;
}

/**
 * Record a manager's decision and resume the conversation (on this worker, right now). The
 * approver is the Slack user of the verified request, as `slack:<id>`. Whoever loses a race
 * is told privately who won; the card is redrawn either way.
 */
export async function decideAndReport(
  deps: BotDeps,
  client: WebClient,
  d: {
    approvalId: string;
    user: string;
    decision: 'approve' | 'reject';
    args?: Record<string, unknown>;
    reason?: string;
    channel?: string;
  },
): Promise<void> {
  const approver = `slack:${d.user}`;
  const log = deps.logger.child({ approval_id: d.approvalId, approver, decision: d.decision });
  const started = Date.now();
  try {
    const out = await deps.agent.decide({
      approvalId: d.approvalId,
      approver,
      decision: d.decision,
      args: d.args,
      reason: d.reason,
    });
    log.info(
      { thread_id: out.approval.thread_id, status: out.approval.status, ms: Date.now() - started },
      'decision handled',
    );
  } catch (err) {
    if (err instanceof LedgerError) {
      log.info({ code: err.code }, 'decision refused');
      await tellPrivately(client, { channel: d.channel, user: d.user, text: ledgerErrorText(err, deps.timeZone) });
      if (err.approval) await deps.cards.sync([err.approval]);
      return;
    }
    log.error({ err }, 'decision failed');
    const now = await deps.agent.ledger.get(d.approvalId).catch(() => undefined);
    const recorded = now && now.approver === approver && now.status !== 'pending';
    await tellPrivately(client, {
      channel: d.channel,
      user: d.user,
      text: recorded
        ? 'Your decision is recorded, but finishing it hit a problem on our side. ' +
          'It is retried automatically and the card will show the outcome.'
        : 'Sorry, something went wrong on our side and your decision was not recorded. ' +
          'Nothing was changed; please try again.',
    }).catch((e) => log.error({ err: e }, 'could not tell the manager'));
    if (now) await deps.cards.sync([now]);
  }
}

export const isPastExpiry = (deps: BotDeps, a: Approval) =>
  a.status === 'pending' && a.expires_at.getTime() <= deps.clock.now().getTime();

/**
 * Someone acted on a card that is out of date. Redraw it; if the approval ran out of time and
 * the sweeper has not got to it yet, run the sweep now (expire it, tell the card and the customer).
 */
export async function settleStale(deps: BotDeps, a: Approval): Promise<void> {
  try {
    if (isPastExpiry(deps, a)) await deps.agent.sweep({ graceMs: 0 });
    else await deps.cards.sync([a]);
  } catch (err) {
    deps.logger.error({ err, approval_id: a.id }, 'could not settle a stale card');
  }
}

/** The manager check every click and submission goes through: identity from the verified request only. */
export async function requireManager(deps: BotDeps, userId: string, what: Record<string, unknown>): Promise<boolean> {
  const ok = await deps.managers.isManager(userId);
  if (!ok) deps.logger.warn({ user: userId, ...what }, 'refused: not a manager');
  return ok;
}

/** Why a manager's decision was not taken, in words for them. */
export interface DecisionRefusal {
  reason: 'not_a_manager' | 'not_found' | 'not_pending';
  text: string;
}

/**
 * The one guard before a manager's decision, for the card buttons and the modal submissions
 * alike: the decider must be a manager (identity from the verified request only), and the
 * approval must exist and still be pending and in time. A refusal is told through `refuse`; a
 * card that was out of date is then settled. Returns the approval to decide on.
 */
export async function guardDecision(
  deps: BotDeps,
  d: { user: string; approvalId: unknown; action: string },
  refuse: (r: DecisionRefusal) => Promise<void>,
): Promise<Approval | undefined> {
  if (!(await requireManager(deps, d.user, { action: d.action, approval_id: d.approvalId }))) {
    await refuse({ reason: 'not_a_manager', text: NOT_A_MANAGER });
    return undefined;
  }
  const id = d.approvalId;
  const approval = typeof id === 'string' && id.length <= 64 ? await deps.agent.ledger.get(id) : undefined;
  if (!approval) {
    deps.logger.warn(
      { user: d.user, action: d.action, value: String(id).slice(0, 64) },
      'decision on an unknown approval',
    );
    await refuse({ reason: 'not_found', text: NOT_FOUND });
    return undefined;
  }
  if (approval.status !== 'pending' || isPastExpiry(deps, approval)) {
    await refuse({ reason: 'not_pending', text: notPendingText(approval, deps.timeZone) });
    await settleStale(deps, approval);
    return undefined;
  }
  return approval;
}

/** A refusal for a click: an ephemeral message to the clicker (a DM when that fails). */
export const refusePrivately =
  (client: WebClient, to: { channel?: string; user: string }) =>
  (r: DecisionRefusal): Promise<void> =>
    tellPrivately(client, { ...to, text: r.text });

/** A refusal for a modal submission: the modal turns into a notice (`title` when the approval is unknown). */
export const refuseInModal =
  (ack: (response: { response_action: 'update'; view: ModalView }) => Promise<void>, title: string) =>
  (r: DecisionRefusal): Promise<void> =>
    ack({ response_action: 'update', view: noticeModal(MODAL_TITLE[r.reason] ?? title, r.text) });

const MODAL_TITLE: Partial<Record<DecisionRefusal['reason'], string>> = {
  not_a_manager: 'Not allowed',
  not_pending: 'Too late',
};
