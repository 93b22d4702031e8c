import type { WebClient } from '@slack/web-api';
import { LedgerError, type Approval } from '../agent/approvals/ledger.js';
import { when } from './blocks/format.js';
import type { BotDeps } from './deps.js';
import { approverMention, escapeText } from './escape.js';
import { tellPrivately } from './replies.js';

export const NOT_A_MANAGER = 'Only Brightwell managers can approve, edit or reject requests. Nothing was changed.';
export const NOT_FOUND = "I can't find that approval (it may have been removed, or this card is out of date). Nothing was changed.";

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
      return `This request expired at ${escapeText(when(a.expires_at, timeZone))} without a decision. Nothing was changed.`;
    case 'superseded':
      return 'The customer changed this request before anyone decided; decide on the newer card instead. Nothing was changed.';
    case 'withdrawn':
      return 'The customer withdrew this request before anyone decided. Nothing was changed.';
    default:
      return `This request was already ${DONE_WORD[a.status] ?? a.status} by ${approverMention(a.approver)}${at}. Nothing else was changed.`;
  }
}

export function ledgerErrorText(err: LedgerError, timeZone: string): string {
  if (err.code === 'not_found') return NOT_FOUND;
  if ((err.code === 'already_decided' || err.code === 'expired') && err.approval) return notPendingText(err.approval, timeZone);
  if (err.code === 'invalid_arguments') return `Those values are not valid: ${escapeText((err.issues ?? []).map((i) => `${i.path || 'arguments'}: ${i.message}`).join('; '))}. Nothing was changed.`;
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
  d: { approvalId: string; user: string; decision: 'approve' | 'reject'; args?: Record<string, unknown>; reason?: string; channel?: string },
): Promise<void> {
  const approver = `slack:${d.user}`;
  const log = deps.logger.child({ approval_id: d.approvalId, approver, decision: d.decision });
  const started = Date.now();
  try {
    const out = await deps.agent.decide({ approvalId: d.approvalId, approver, decision: d.decision, args: d.args, reason: d.reason });
    log.info({ thread_id: out.approval.thread_id, status: out.approval.status, ms: Date.now() - started }, 'decision handled');
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
        ? 'Your decision is recorded, but finishing it hit a problem on our side. It is retried automatically and the card will show the outcome.'
        : 'Sorry, something went wrong on our side and your decision was not recorded. Nothing was changed; please try again.',
    }).catch((e) => log.error({ err: e }, 'could not tell the manager'));
    if (now) await deps.cards.sync([now]);
  }
}

export const isPastExpiry = (deps: BotDeps, a: Approval) => a.status === 'pending' && a.expires_at.getTime() <= deps.clock.now().getTime();

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
