import { WITHDRAW_TOOL, type PlanContext } from '../../../plan-context.js';
import type { Analysis } from '../analysis/analyze.js';
import { withdrawTarget } from '../analysis/cues.js';
import { clip, joinList } from '../analysis/text.js';
import { describeCall } from '../replies/templates.js';
import type { PlannedCall } from './turn.js';

/**
 * Taking back pending requests ("never mind", "cancel that request"): withdraw_request calls for
 * the matching ones, or a note when nothing pending matches. `withdrawing` without anything
 * pending is for the caller to answer, once it knows nothing else was asked.
 */
export function planWithdrawal(
  a: Analysis,
  ctx: PlanContext,
  newBooking: boolean,
): { withdrawing: boolean; calls: PlannedCall[]; note?: string } {
  const pendingBook = ctx.pending.filter((p) => p.tool === 'book_slot');
  const withdrawing = a.cues.withdraw || (a.cues.cancelBooking && pendingBook.length > 0);
  if (!withdrawing || !ctx.pending.length) return { withdrawing, calls: [] };
  const target = a.cues.cancelBooking ? 'book_slot' : withdrawTarget(a.text, ctx.services);
  const skipBook = newBooking; // a new booking replaces the pending one (the graph supersedes it)
  const matching = ctx.pending.filter((p) => (!target || p.tool === target) && !(skipBook && p.tool === 'book_slot'));
  const reason = clip(a.text, 500);
  if (matching.length && !target && matching.length === ctx.pending.length && matching.length > 1) {
    return { withdrawing, calls: [{ name: WITHDRAW_TOOL, args: { reason } }] };
  }
  if (matching.length) {
    return {
      withdrawing,
      calls: matching.map((p) => ({ name: WITHDRAW_TOOL, args: { approval_id: p.approval_id, reason } })),
    };
  }
  if (skipBook) return { withdrawing, calls: [] };
  const waiting = joinList(ctx.pending.map((p) => describeCall({ name: p.tool, args: p.args }, ctx)));
  return {
    withdrawing,
    calls: [],
    note:
      `I don't see a pending request like that. Still waiting for approval: ${waiting}. ` +
      `Should I withdraw ${ctx.pending.length === 1 ? 'it' : 'those'}?`,
  };
}
