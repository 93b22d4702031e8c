import { approve, propose } from '../api.js';
import type { ChaosContext } from '../context.js';
import { approvalFacts, baseline, countUnauthorizedAndCrashes, settle, tally } from '../invariants.js';
import { sleep } from '../processes.js';
import { emptyResult, type TrialResult } from '../report.js';
import type { Worker } from '../workers.js';

/**
 * SIGKILL the approving worker (and its tool server) at a random moment 0–300 ms after the
 * approve was sent, then start it again. The other workers' sweepers must finish every approved
 * write exactly once; nothing may stay approved/executing.
 */
export async function kills(ctx: ChaosContext, workers: Worker[], db: string): Promise<TrialResult> {
  const r = emptyResult(`SIGKILL of the approving worker`);
  const crashesBefore = ctx.crashes.length;
  const base = await baseline(ctx.cluster, db);
  const ids: string[] = [];
  const approvedByApi = new Set<string>();
  const killedDuring: string[] = [];
  for (let k = 0; k < ctx.sizes.kills; k++) {
    r.trials++;
    const victim = workers[k % workers.length]!;
    const proposer = workers[(k + 1) % workers.length]!;
    const { proposal, reply } = await propose(proposer.url, ctx.keys, 1000 + k);
    if (!proposal) {
      r.failures.push(`kill ${k}: no proposal (${reply.status} ${JSON.stringify(reply.body).slice(0, 200)})`);
      continue;
    }
    ids.push(proposal.approvalId);
    const delay = ctx.rng.int(0, 300);
    const answer = approve(victim.url, ctx.keys, proposal.approvalId, 30_000);
    await sleep(delay);
    await victim.kill();
    const a = await answer;
    if (a.status === 200) approvedByApi.add(proposal.approvalId);
    killedDuring.push(
      `kill ${k}: ${victim.name} killed ${delay} ms after approve ${proposal.approvalId}; ` +
        `approve answered ${a.status || a.error}`,
    );
    await victim.start();
  }
  ctx.log(`kills: waiting up to ${ctx.sizes.settleMs / 1000} s for the sweepers`);
  const waited = await settle(ctx.cluster, db, ids, ctx.sizes.settleMs);
  const facts = await approvalFacts(ctx.cluster, db, ids);
  const t = tally(facts, approvedByApi);
  Object.assign(r, { executed: t.executed, lost: t.lost, duplicated: t.duplicated });
  r.evidence.push(...t.evidence);
  if (waited < 0) r.evidence.push(...killedDuring, ...facts.map((f) => `${f.id}: ${f.status}, ${f.writes} writes`));
  await countUnauthorizedAndCrashes(r, ctx, db, base, crashesBefore);
  return r;
}
