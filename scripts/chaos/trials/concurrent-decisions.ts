import { approve, propose, type Reply } from '../api.js';
import type { ChaosContext } from '../context.js';
import { pool } from '../fleet.js';
import { approvalFacts, baseline, countUnauthorizedAndCrashes, settle, tally } from '../invariants.js';
import { emptyResult, type TrialResult } from '../report.js';
import type { Worker } from '../workers.js';

/**
 * Propose a write, then approve the same approval on every worker at the same instant: exactly
 * one 200, the others 409, exactly one write.
 */
export async function concurrentDecisions(ctx: ChaosContext, workers: Worker[], db: string): Promise<TrialResult> {
  const r = emptyResult(`concurrent decisions (${workers.length} workers)`);
  const crashesBefore = ctx.crashes.length;
  const base = await baseline(ctx.cluster, db);
  const ids: string[] = [];
  const approvedByApi = new Set<string>();
  const rounds = Array.from({ length: ctx.sizes.decisionRounds }, (_, i) => i);
  await pool(rounds, 4, async (round) => {
    r.trials++;
    const { proposal, reply } = await propose(workers[round % workers.length]!.url, ctx.keys, round);
    if (!proposal) {
      r.failures.push(`round ${round}: no proposal (${reply.status} ${JSON.stringify(reply.body).slice(0, 200)})`);
      return;
    }
    ids.push(proposal.approvalId);
    // Every request is connected and waiting before the first one is sent.
    const answers: Reply[] = await Promise.all(workers.map((w) => approve(w.url, ctx.keys, proposal.approvalId)));
    const codes = answers.map((a) => a.status);
    const ok = codes.filter((c) => c === 200).length;
    const conflicts = codes.filter((c) => c === 409).length;
    r.refused += conflicts;
    if (ok === 1) approvedByApi.add(proposal.approvalId);
    if (ok !== 1 || conflicts !== workers.length - 1) {
      r.failures.push(
        `round ${round}: approve answers ${codes.join(', ')} (want one 200 and ${workers.length - 1}× 409)`,
      );
      r.evidence.push(
        ...answers
          .filter((a) => a.status !== 200 && a.status !== 409)
          .map((a) => `round ${round}: ${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 300)}`),
      );
    }
  });
  await settle(ctx.cluster, db, ids, ctx.sizes.settleMs);
  const t = tally(await approvalFacts(ctx.cluster, db, ids), approvedByApi);
  Object.assign(r, { executed: t.executed, lost: t.lost, duplicated: t.duplicated });
  r.evidence.push(...t.evidence);
  await countUnauthorizedAndCrashes(r, ctx, db, base, crashesBefore);
  return r;
}
