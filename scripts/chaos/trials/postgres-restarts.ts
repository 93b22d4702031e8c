import { approve, propose } from '../api.js';
import { describeFault, type ChaosContext, type Fault } from '../context.js';
import { approvalFacts, baseline, countUnauthorizedAndCrashes, settle, tally } from '../invariants.js';
import { sleep, waitFor } from '../processes.js';
import { emptyResult, type TrialResult } from '../report.js';
import type { Worker } from '../workers.js';

const HEALTH_RECOVERY_MS = 30_000;

/**
 * Postgres restarted (fast, immediate) or stopped for a while under traffic, directly or behind
 * PgBouncer: no worker exits, /healthz recovers on every worker by itself, every approved write
 * exists exactly once, nothing is left approved/executing.
 */
export async function postgresRestarts(
  ctx: ChaosContext,
  opts: { name: string; workers: Worker[]; db: string; faults: Fault[] },
): Promise<TrialResult> {
  const r = emptyResult(opts.name);
  const crashesBefore = ctx.crashes.length;
  const base = await baseline(ctx.cluster, opts.db);
  const ids: string[] = [];
  const approvedByApi = new Set<string>();
  const statusCounts = new Map<string, number>();
  const count = (k: string) => statusCounts.set(k, (statusCounts.get(k) ?? 0) + 1);
  let n = 0;

  for (const fault of opts.faults) {
    r.trials++;
    ctx.log(`${opts.name}: ${describeFault(fault)}`);
    let traffic = fault.traffic;
    const loops = fault.traffic
      ? Array.from({ length: 3 }, async (_, lane) => {
          while (traffic) {
            const i = n++;
            const w = opts.workers[(i + lane) % opts.workers.length]!;
            const { proposal, reply } = await propose(w.url, ctx.keys, i);
            count(`chat ${reply.status}`);
            if (!proposal) {
              await sleep(100);
              continue;
            }
            ids.push(proposal.approvalId);
            const a = await approve(
              opts.workers[(i + lane + 1) % opts.workers.length]!.url,
              ctx.keys,
              proposal.approvalId,
            );
            count(`approve ${a.status}`);
            if (a.status === 200) approvedByApi.add(proposal.approvalId);
            else if (a.status >= 500 || a.status === 0)
              r.evidence.push(
                `approve ${proposal.approvalId} during the fault: ` +
                  `${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}`,
              );
          }
        })
      : [];
    await sleep(fault.traffic ? 2_000 : 500);
    try {
      if (fault.kind === 'restart') await ctx.cluster.restart(fault.mode);
      else {
        await ctx.cluster.stop(fault.mode);
        await sleep(fault.seconds * 1000);
        await ctx.cluster.start();
      }
    } catch (err) {
      r.failures.push(`${describeFault(fault)}: the harness could not do it: ${(err as Error).message}`);
    }
    await sleep(fault.traffic ? 3_000 : 500);
    traffic = false;
    await Promise.all(loops);
    for (const w of opts.workers) {
      if (!w.alive) continue; // counted as a crash
      const back = await waitFor(async () => w.healthy(), HEALTH_RECOVERY_MS, 250);
      if (!back)
        r.failures.push(
          `${describeFault(fault)}: ${w.name} /healthz did not recover within ${HEALTH_RECOVERY_MS / 1000} s`,
        );
    }
    // Healthy is not enough: each worker must also do real work again (a write proposed and approved).
    for (const w of opts.workers) {
      if (!w.alive) continue;
      const worked = await waitFor(
        async () => {
          const { proposal } = await propose(w.url, ctx.keys, n++);
          if (!proposal) return undefined;
          ids.push(proposal.approvalId);
          const a = await approve(w.url, ctx.keys, proposal.approvalId);
          if (a.status === 200) approvedByApi.add(proposal.approvalId);
          return a.status === 200;
        },
        HEALTH_RECOVERY_MS,
        500,
      );
      if (!worked)
        r.failures.push(
          `${describeFault(fault)}: ${w.name} could not propose and approve a write ` +
            `within ${HEALTH_RECOVERY_MS / 1000} s after the fault`,
        );
    }
    // A crashed worker is restarted so the next fault still has a full fleet; the crash stays counted.
    for (const w of opts.workers)
      if (!w.alive)
        await w.start().catch((err) => r.failures.push(`${w.name} could not be restarted: ${(err as Error).message}`));
  }

  ctx.log(`${opts.name}: waiting up to ${ctx.sizes.settleMs / 1000} s for approved work to settle`);
  await settle(ctx.cluster, opts.db, ids, ctx.sizes.settleMs);
  const t = tally(await approvalFacts(ctx.cluster, opts.db, ids), approvedByApi);
  Object.assign(r, { executed: t.executed, lost: t.lost, duplicated: t.duplicated });
  r.evidence.unshift(`requests: ${[...statusCounts].map(([k, v]) => `${k}×${v}`).join(', ')}; proposals ${ids.length}`);
  r.evidence.push(...t.evidence);
  await countUnauthorizedAndCrashes(r, ctx, opts.db, base, crashesBefore);
  return r;
}
