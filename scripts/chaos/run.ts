/**
 * `npm run test:chaos [-- --short] [--md FILE] [--json FILE] [--seed N] [--only a,b] [--real-clock]`
 *
 * Attacks the real product as an operator and an attacker would: its own disposable Postgres
 * (never the machine's), several real `npm start` workers, PgBouncer in transaction mode, the
 * HTTP tool server. Prints one table row per trial and exits 1 on any loss, duplicate, crash,
 * unauthorized write or failed expectation.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TEST_NOW } from '../../core/testing/constants.js';
import { clusterPidFile, startCluster, type Cluster } from './cluster.js';
import { FULL, SHORT, type ChaosContext } from './context.js';
import { startFleet, stopFleet } from './fleet.js';
import { ensurePgbouncer, startPgbouncer, type Pgbouncer } from './pgbouncer.js';
import { killAllSync } from './processes.js';
import { emptyResult, failed, markdown, type TrialResult } from './report.js';
import { Rng } from './rng.js';
import { attacks } from './trials/attacks.js';
import { concurrentDecisions } from './trials/concurrent-decisions.js';
import { fuzz } from './trials/fuzz.js';
import { kills } from './trials/kills.js';
import { postgresRestarts } from './trials/postgres-restarts.js';
import type { Worker } from './workers.js';

export const TRIAL_NAMES = ['decisions', 'kills', 'restarts', 'pgbouncer', 'attacks', 'fuzz'] as const;
export type TrialName = (typeof TRIAL_NAMES)[number];

export interface ChaosOptions {
  short: boolean;
  seed: number;
  only?: TrialName[];
  realClock?: boolean;
  keepTemp?: boolean;
  log?: (m: string) => void;
}

export interface ChaosRun {
  results: TrialResult[];
  markdown: string;
  ok: boolean;
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosRun> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`chaos: ${m}\n`));
  const want = (t: TrialName) => !opts.only || opts.only.includes(t);
  const dir = mkdtempSync(path.join(tmpdir(), 'support-agent-chaos-'));
  // The cluster and PgBouncer run as the `postgres` user when we are root: they must enter it.
  chmodSync(dir, 0o755);
  const results: TrialResult[] = [];
  let cluster: Cluster | undefined;
  let bouncer: Pgbouncer | undefined;
  const fleets: Worker[][] = [];
  const onExit = () => {
    killAllSync();
    stopPostmasterSync(dir);
    if (!opts.keepTemp) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  // A signal's default action skips 'exit' handlers (a test runner stopped with SIGTERM): clean up,
  // then die of the same signal.
  const onSignal = (sig: NodeJS.Signals) => {
    onExit();
    process.off('exit', onExit);
    process.kill(process.pid, sig);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const hooked = signals.filter((sig) => process.listenerCount(sig) === 0);
  for (const sig of hooked) process.once(sig, onSignal);
  const t0 = Date.now();
  const timed = async (fn: () => Promise<TrialResult>, name: string): Promise<void> => {
    const started = Date.now();
    let r: TrialResult;
    try {
      r = await fn();
    } catch (err) {
      r = emptyResult(name);
      r.failures.push(`the trial itself failed: ${(err as Error).stack ?? String(err)}`);
    }
    r.seconds = (Date.now() - started) / 1000;
    results.push(r);
    log(`${r.name}: ${r.skipped ? `skipped (${r.skipped})` : failed(r) ? 'FAIL' : 'ok'} in ${Math.round(r.seconds)} s`);
  };
  try {
    cluster = await startCluster(dir);
    log(`disposable Postgres on 127.0.0.1:${cluster.port} in ${dir}`);
    const ctx: ChaosContext = {
      dir,
      cluster,
      keys: {
        apiKey: `chaos-api-${randomBytes(12).toString('hex')}`,
        managerKey: `chaos-mgr-${randomBytes(12).toString('hex')}`,
      },
      rng: new Rng(opts.seed),
      sizes: opts.short ? SHORT : FULL,
      fixedNow: opts.realClock ? undefined : TEST_NOW,
      crashes: [],
      log,
    };

    if (want('decisions') || want('kills') || want('restarts')) {
      const url = await cluster.createDatabase('chaos_direct');
      const fleet = await startFleet(ctx, { prefix: 'w', databaseUrl: url, count: 3 });
      fleets.push(fleet);
      log(`3 workers up (${Math.round((Date.now() - t0) / 1000)} s)`);
      if (want('decisions')) await timed(() => concurrentDecisions(ctx, fleet, 'chaos_direct'), 'concurrent decisions');
      if (want('kills')) await timed(() => kills(ctx, fleet, 'chaos_direct'), 'SIGKILL of the approving worker');
      if (want('restarts')) {
        await timed(
          () =>
            postgresRestarts(ctx, {
              name: 'Postgres restarts (direct)',
              workers: fleet,
              db: 'chaos_direct',
              faults: ctx.sizes.directFaults,
            }),
          'Postgres restarts (direct)',
        );
      }
      await stopFleet(fleet);
    }

    if (want('pgbouncer')) {
      const name = 'Postgres restarts (PgBouncer, transaction mode)';
      const ensured = await ensurePgbouncer();
      if (!ensured.ok) {
        const r = emptyResult(name);
        if (opts.short) r.skipped = `PgBouncer is not installable here: ${ensured.reason}`;
        else r.failures.push(`PgBouncer is not installable here: ${ensured.reason}`);
        results.push(r);
        log(`${name}: ${r.skipped ? 'skipped' : 'FAIL'}: ${ensured.reason}`);
      } else {
        await cluster.createDatabase('chaos_pooled');
        bouncer = await startPgbouncer(dir, cluster.port);
        const pooled = bouncer;
        const fleet = await startFleet(ctx, { prefix: 'p', databaseUrl: pooled.url('chaos_pooled'), count: 3 });
        fleets.push(fleet);
        await timed(
          () => postgresRestarts(ctx, { name, workers: fleet, db: 'chaos_pooled', faults: ctx.sizes.pooledFaults }),
          name,
        );
        await stopFleet(fleet);
        await pooled.stop();
      }
    }

    if (want('attacks')) await timed(() => attacks(ctx), 'attacks');
    if (want('fuzz')) await timed(() => fuzz(ctx), 'fuzz');
  } catch (err) {
    const r = emptyResult('harness');
    r.failures.push(`the harness failed: ${(err as Error).stack ?? String(err)}`);
    results.push(r);
  } finally {
    for (const f of fleets) await stopFleet(f).catch(() => undefined);
    await bouncer?.stop().catch(() => undefined);
    await cluster?.destroy().catch(() => undefined);
    killAllSync();
    process.off('exit', onExit);
    for (const sig of hooked) process.off(sig, onSignal);
    if (!opts.keepTemp) rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
  const md = markdown(results, { mode: opts.short ? 'short' : 'full', seed: opts.seed });
  return { results, markdown: md, ok: results.length > 0 && !results.some(failed) };
}

/** Last resort on an abrupt exit: an immediate shutdown of the cluster's postmaster. */
function stopPostmasterSync(dir: string): void {
  try {
    const pid = Number(readFileSync(clusterPidFile(dir), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    /* not running */
  }
}

function parseArgs(argv: string[]): ChaosOptions & { md?: string; json?: string } {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = value('--only')
    ?.split(',')
    .map((s) => s.trim()) as TrialName[] | undefined;
  for (const t of only ?? [])
    if (!TRIAL_NAMES.includes(t)) throw new Error(`--only: unknown trial ${t} (one of ${TRIAL_NAMES.join(', ')})`);
  const seed = Number(value('--seed') ?? Math.floor(Math.random() * 2 ** 31));
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  return {
    short: argv.includes('--short'),
    seed,
    only,
    realClock: argv.includes('--real-clock'),
    keepTemp: argv.includes('--keep-temp'),
    md: value('--md'),
    json: value('--json'),
  };
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      killAllSync();
      process.exit(130);
    });
  }
  const run = await runChaos(opts);
  process.stdout.write(run.markdown);
  if (opts.md) writeFileSync(opts.md, run.markdown);
  if (opts.json)
    writeFileSync(
      opts.json,
      JSON.stringify(
        { ok: run.ok, seed: opts.seed, mode: opts.short ? 'short' : 'full', results: run.results },
        null,
        2,
      ),
    );
  process.exit(run.ok ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    process.stderr.write(`chaos: ${(err as Error).stack ?? String(err)}\n`);
    killAllSync();
    process.exit(2);
  });
}
