/**
 * One bench run: the product (two worker processes, each with its stdio tool server) and the bare
 * LangGraph flow (one worker process) on the same Postgres, driven by the same HTTP driver in
 * alternating rounds, then the Slack path for ack latency and a Gemini-shaped request for tokens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { ManualClock } from '../../core/clock.js';
import { freePort } from '../../core/embedded-postgres.js';
import { createPool, type Pool } from '../../core/pg-pool.js';
import { TEST_NOW, TEST_TZ } from '../../core/testing/constants.js';
import { checkpointBytes } from '../../agent/checkpoint-size.js';
import { localApiUrl, localConnection, LOCAL_IDS, startLocalWorkspace } from '../../bot/local-mode.js';
import type { LocalSlack } from '../../local-slack/index.js';
import { createEvalDatabase } from '../../evals/database.js';
import { DEMO_CUSTOMERS } from '../../schema/demo.js';
import { setupBare } from './bare-graph.js';
import { openCluster } from './cluster.js';
import { compileForBench } from './compiled.js';
import { conversation, say, throughput, type Target } from './driver.js';
import { measurePromptTokens } from './prompt-tokens.js';
import { childrenCpuMs, machineTicks, treeCommands, treeCpuMs, treeRssBytes } from './proc.js';
import type { BenchResults, Checkpoint, FlowResults, WideBurst } from './results.js';
import { mean, percentile } from '../../core/stats.js';
import { ratio, summarize } from './stats.js';
import { spawnWorker, type BenchWorker } from './worker-process.js';

export interface BenchOptions {
  quick: boolean;
  databaseUrl?: string;
  log?: (line: string) => void;
  /** Node flags for the product workers; by default none, as `npm run start:prod` and the image run them. */
  workerNodeFlags?: string[];
  /** Where to write the product's statements, costliest first (JSON), once the run is over. */
  statementsFile?: string;
}

const SIZES = {
  quick: { rounds: 1, conversations: 4, sql: 2, burst: 8, pairs: 1, turns: 10, acks: 6, warmup: 1 },
  full: { rounds: 3, conversations: 15, sql: 6, burst: 48, pairs: 3, turns: 50, acks: 30, warmup: 3 },
};

const MANAGER_KEY = 'bench-manager-key-0123456789';
const QUESTION = 'What are your opening hours on Saturdays?';

interface Side {
  target: Target;
  /** Worker processes serving the load (their trees are what is charged). */
  pids: number[];
  db: string;
  card: number[];
  execute: number[];
  cpuNode: number[];
  /** Of cpuNode: the workers' children (the product's stdio tool servers; bare has none). */
  cpuChildren: number[];
  cpuPg: number[];
  seqSeconds: number;
  seqConversations: number;
}

const mb = (b: number) => Math.round(b / 1e6);

/** A crowd at once (issue 12: memory stays bounded and latency too, admission control queueing the rest). */
const WIDE = 200;

/** WIDE conversations started together on one worker, its tree's RSS sampled throughout. */
async function wideBurst(t: Target, pid: number, offset: number): Promise<WideBurst> {
  let peak = treeRssBytes(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRssBytes(pid));
  }, 100);
  const t0 = performance.now();
  try {
    const r = await throughput(t, WIDE, WIDE, offset);
    return {
      in_flight: WIDE,
      failed_conversations: r.failed,
      failure_kinds: r.errors,
      seconds: Math.round((performance.now() - t0) / 100) / 10,
      peak_rss_mb: mb(Math.max(peak, treeRssBytes(pid))),
      message_to_card_ms: summarize(r.completed.map((c) => c.cardMs)),
      click_to_executed_ms: summarize(r.completed.map((c) => c.executeMs)),
    };
  } finally {
    clearInterval(sampler);
  }
}
const settle = () => new Promise((r) => setTimeout(r, 60));

export async function runBench(opts: BenchOptions): Promise<BenchResults> {
  const size = opts.quick ? SIZES.quick : SIZES.full;
  const log = opts.log ?? (() => undefined);
  log('compiling the product and the bare flow (npm run build, plus the bench workers)');
  const compiled = compileForBench();
  const cluster = await openCluster(opts.databaseUrl).catch((err: unknown) => {
    compiled.remove();
    throw err;
  });
  const workers: BenchWorker[] = [];
  let slack: LocalSlack | undefined;
  const pools: Pool[] = [];
  const drops: (() => Promise<void>)[] = [];
  // Where the workers' email dispatcher writes what it would send: the bench's own, removed at the end.
  let productName: string | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'support-agent-bench-data-'));
  try {
    log(`postgres: ${cluster.embedded ? 'own embedded cluster' : 'DATABASE_URL'}`);
    const clock = new ManualClock(TEST_NOW);
    const productDb = await createEvalDatabase(cluster.adminUrl, { clock, timeZone: TEST_TZ });
    productName = productDb.name;
    drops.push(() => productDb.drop());
    const bareDb = await cluster.createDatabase('bench_bare');
    const barePool = createPool(bareDb.url, { max: 2, applicationName: 'bench-bare-admin' });
    pools.push(barePool);
    await setupBare(barePool);

    const slackPort = await freePort();
    const connection = localConnection({ apiUrl: localApiUrl(slackPort) });
    const settings = {
      DATABASE_URL: productDb.url,
      PORT: '0',
      SEED_DEMO: 'false',
      BUSINESS_TIMEZONE: TEST_TZ,
      FIXED_NOW: TEST_NOW,
      SWEEPER_INTERVAL_SECONDS: '3600',
      MANAGER_API_KEY: MANAGER_KEY,
      RATE_LIMIT_PER_MINUTE: '1000000',
      DATA_DIR: dataDir,
    };
    log('starting two product workers and the bare worker');
    for (let i = 0; i < 2; i++) {
      workers.push(
        await spawnWorker(
          compiled.root,
          'product-worker',
          {
            BENCH_CONFIG: JSON.stringify(settings),
            BENCH_SLACK: JSON.stringify(connection),
            BENCH_WORKER_ID: `bench-${i}`,
          },
          opts.workerNodeFlags,
        ),
      );
    }
    const bareWorker = await spawnWorker(compiled.root, 'bare-worker', { DATABASE_URL: bareDb.url });
    workers.push(bareWorker);
    const [a, b] = workers as [BenchWorker, BenchWorker];
    slack = await startLocalWorkspace(connection, {
      port: slackPort,
      eventsUrls: [a, b].map((w) => `${w.url}/slack/events`),
      // The bench compares the agent with bare LangGraph, not with Slack's one-message-a-second-per-
      // channel limit, which every conversation here shares (the app waiting it out is tested in
      // bot/rate-limited.test.ts). With the limit on, 16 conversations in flight queue behind it.
      rateLimits: false,
    });
    await settle();
    const idleRss = { product: mb(treeRssBytes(a.pid)), bare: mb(treeRssBytes(bareWorker.pid)) };
    // What was measured: the commands of each tree (compiled JavaScript, as production runs).
    const commands = (pid: number) => treeCommands(pid).map((c) => c.replaceAll(process.execPath, 'node'));
    const processes = { product: commands(a.pid), bare: commands(bareWorker.pid) };

    const side = (target: Target, pids: number[], db: string): Side => ({
      target,
      pids,
      db,
      card: [],
      execute: [],
      cpuNode: [],
      cpuChildren: [],
      cpuPg: [],
      seqSeconds: 0,
      seqConversations: 0,
    });
    const product = side({ urls: [a.url], managerKey: MANAGER_KEY }, [a.pid], productDb.name);
    const bare = side({ urls: [bareWorker.url] }, [bareWorker.pid], bareDb.name);
    let n = 0;
    for (const s of [product, bare]) for (let i = 0; i < size.warmup; i++) await conversation(s.target, n++);
    for (let i = 0; i < size.warmup; i++) await conversation({ ...product.target, urls: [b.url] }, n++);

    // Alternating rounds, sequential: latency, CPU per conversation, throughput at 1 in flight.
    for (let round = 0; round < size.rounds; round++) {
      for (const s of [product, bare]) {
        const node0 = treeCpuMs(s.pids);
        const children0 = childrenCpuMs(s.pids);
        const pg0 = cluster.serverCpuMs();
        const t0 = performance.now();
        for (let i = 0; i < size.conversations; i++) {
          const c = await conversation(s.target, n++);
          s.card.push(c.cardMs);
          s.execute.push(c.executeMs);
        }
        s.seqSeconds += (performance.now() - t0) / 1000;
        s.seqConversations += size.conversations;
        await settle();
        s.cpuNode.push((treeCpuMs(s.pids) - node0) / size.conversations);
        s.cpuChildren.push((childrenCpuMs(s.pids) - children0) / size.conversations);
        const pg1 = cluster.serverCpuMs();
        if (pg0 !== undefined && pg1 !== undefined) s.cpuPg.push((pg1 - pg0) / size.conversations);
      }
      log(`round ${round + 1}/${size.rounds} done`);
    }

    // Statements, counted between the calls: what one message and one approval cost.
    const sql = async (s: Side) => {
      const perMessage: number[] = [];
      const perApproval: number[] = [];
      for (let i = 0; i < size.sql; i++) {
        let mid: number | undefined;
        await settle();
        const before = await cluster.statements(s.db);
        await conversation(s.target, n++, {
          between: async () => {
            await settle();
            mid = await cluster.statements(s.db);
          },
        });
        await settle();
        const after = await cluster.statements(s.db);
        if (before === undefined || mid === undefined || after === undefined) return { message: null, approval: null };
        perMessage.push(mid - before);
        perApproval.push(after - mid);
      }
      // The counting query itself runs in another database, so it is not in these numbers.
      return { message: percentile(perMessage, 0.5), approval: percentile(perApproval, 0.5) };
    };
    const productSql = await sql(product);
    const bareSql = await sql(bare);

    log('throughput at 16 in flight');
    const failed = { product: 0, bare: 0 };
    const failures = { product: new Set<string>(), bare: new Set<string>() };
    // Cores busy while a burst runs: the workers' trees, Postgres and this process (the driver and the
    // local Slack the cards go to). Near the machine's count, a second worker has no core to add.
    const busy = { one: [] as number[], two: [] as number[], bare: [] as number[] };
    const machineBusy = { one: [] as number[], two: [] as number[], bare: [] as number[] };
    const burst16 = async (t: Target, who: keyof typeof failed, pids: number[], label: keyof typeof busy) => {
      const cpu = () => {
        const self = process.cpuUsage();
        return treeCpuMs(pids) + (cluster.serverCpuMs() ?? 0) + (self.user + self.system) / 1000;
      };
      const cpu0 = cpu();
      const m0 = machineTicks();
      const t0 = performance.now();
      const r = await throughput(t, 16, size.burst, n);
      busy[label].push((cpu() - cpu0) / (performance.now() - t0));
      const m1 = machineTicks();
      // Busy share of every core: above ours, something else on the machine took the difference.
      machineBusy[label].push(((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * availableParallelism());
      n += size.burst;
      failed[who] += r.failed;
      for (const e of r.errors) failures[who].add(e);
      return { conversations: size.burst - r.failed, seconds: (performance.now() - t0) / 1000 };
    };
    // Worker b has served only its warm-up so far, a every sequential round: V8 optimizes what a
    // process has run, so a half-cold second worker would count against two workers. Unmeasured.
    await throughput({ ...product.target, urls: [b.url] }, 16, size.burst, n);
    n += size.burst;
    // One worker and two alternate, pooled over the pairs: a single burst of each swung the ratio
    // from 0.9 to 1.15 between two runs of the same tree on this shared machine.
    const one: { conversations: number; seconds: number }[] = [];
    const two: typeof one = [];
    let bare16 = 0;
    for (let pair = 0; pair < size.pairs; pair++) {
      one.push(await burst16(product.target, 'product', [a.pid], 'one'));
      if (pair === 0) {
        const b16 = await burst16(bare.target, 'bare', [bareWorker.pid], 'bare');
        bare16 = b16.conversations / b16.seconds;
      }
      two.push(await burst16({ ...product.target, urls: [a.url, b.url] }, 'product', [a.pid, b.pid], 'two'));
    }
    const perSecond = (xs: typeof one) =>
      xs.reduce((s, x) => s + x.conversations, 0) / xs.reduce((s, x) => s + x.seconds, 0);
    const product16 = perSecond(one);
    const product16two = perSecond(two);
    const r2 = (x: number) => Math.round(x * 100) / 100;
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const coresBusy = {
      one_worker: r2(mean(busy.one)),
      two_workers: r2(mean(busy.two)),
      machine_one_worker: r2(mean(machineBusy.one)),
      machine_two_workers: r2(mean(machineBusy.two)),
      machine: availableParallelism(),
    };
    const loadedRss = { product: mb(treeRssBytes(a.pid)), bare: mb(treeRssBytes(bareWorker.pid)) };

    log(`${WIDE} conversations in flight on one worker`);
    const wide = await wideBurst(product.target, a.pid, n);
    n += WIDE;

    log(`checkpoint bytes over a ${size.turns}-turn thread`);
    const checkpoint = async (t: Target, pool: Pool): Promise<Checkpoint> => {
      const sizes: number[] = [];
      let thread: string | undefined;
      for (let i = 0; i < size.turns; i++) {
        thread = await say(t, 'cus_001', `${QUESTION} (${i})`, thread);
        sizes.push(await checkpointBytes(pool, thread));
      }
      const half = Math.floor(size.turns / 2);
      const late = (sizes[size.turns - 1]! - sizes[half - 1]!) / (size.turns - half);
      const perTurn = Math.round(sizes[size.turns - 1]! / size.turns);
      return {
        turns: size.turns,
        total_bytes: sizes[size.turns - 1]!,
        bytes_per_turn: perTurn,
        // Flat per turn means the thread's stored total grows at most linearly; kept bounded (old
        // checkpoints pruned), the end is about the middle. Either way this must not exceed 2.
        flatness: sizes[half - 1]! > 0 ? Math.round((sizes[size.turns - 1]! / sizes[half - 1]!) * 100) / 100 : null,
        total_kb_50:
          size.turns >= 50
            ? Math.round(sizes[49]! / 100) / 10
            : Math.round((sizes[size.turns - 1]! + late * (50 - size.turns)) / 100) / 10,
      };
    };
    const productCheckpoint = await checkpoint(product.target, productDb.pool);
    const bareCheckpoint = await checkpoint(bare.target, barePool);

    log('Slack path: ack latency');
    const acks: number[] = [];
    const customers = DEMO_CUSTOMERS.filter((c) => c.slack_user_id);
    for (let i = 0; i < size.acks; i++) {
      const t0 = performance.now();
      // Resolves once the worker answered the signed delivery: the ack as Slack times it.
      const post = await slack.postAsUser(customers[i % customers.length]!.slack_user_id!, LOCAL_IDS.support, QUESTION);
      acks.push(performance.now() - t0);
      await slack.waitFor(
        () =>
          slack!
            .messages(LOCAL_IDS.support, { thread_ts: post.ts })
            .some((m) => m.bot_id || m.user === LOCAL_IDS.botUserId),
        20_000,
      );
    }
    const server = (await Promise.all([a, b].map((w) => w.command('ack')))) as {
      p50: number;
      p95: number;
      max: number;
    }[];

    log('prompt tokens per plan call');
    const tokens = await measurePromptTokens(settings);

    const flow = (
      s: Side,
      failures: number,
      kinds: Set<string>,
      sqlCounts: typeof productSql,
      cp: Checkpoint,
      rss: { idle: number; loaded: number },
      t16: number,
    ) => {
      const nodeCpu = mean(s.cpuNode);
      const pgCpu = s.cpuPg.length ? mean(s.cpuPg) : null;
      const r1 = (x: number) => Math.round(x * 10) / 10;
      return {
        conversations: s.card.length,
        failed_conversations: failures,
        failure_kinds: [...kinds],
        cpu_ms_per_conversation: r1(nodeCpu + (pgCpu ?? 0)),
        node_cpu_ms_per_conversation: r1(nodeCpu),
        tool_server_cpu_ms_per_conversation: r1(mean(s.cpuChildren)),
        postgres_cpu_ms_per_conversation: pgCpu === null ? null : r1(pgCpu),
        message_to_card_ms: summarize(s.card),
        click_to_executed_ms: summarize(s.execute),
        throughput_per_s: { in_flight_1: r1(s.seqConversations / s.seqSeconds), in_flight_16: r1(t16) },
        sql_per_message: sqlCounts.message,
        sql_per_approval: sqlCounts.approval,
        checkpoint: cp,
        rss_mb: { idle_worker: rss.idle, loaded_worker: rss.loaded },
      } as FlowResults;
    };
    const p = flow(
      product,
      failed.product,
      failures.product,
      productSql,
      productCheckpoint,
      { idle: idleRss.product, loaded: loadedRss.product },
      product16,
    );
    p.throughput_per_s = { ...p.throughput_per_s, in_flight_16_two_workers: Math.round(product16two * 10) / 10 };
    const q = flow(
      bare,
      failed.bare,
      failures.bare,
      bareSql,
      bareCheckpoint,
      { idle: idleRss.bare, loaded: loadedRss.bare },
      bare16,
    );
    const ackSummary = summarize(acks);
    return {
      meta: {
        mode: opts.quick ? 'quick' : 'full',
        database: cluster.embedded ? 'embedded' : 'DATABASE_URL',
        statements_counted_by: cluster.countsStatements ? 'pg_stat_statements' : 'not available',
        planner: 'offline',
        rounds: size.rounds,
        throughput_pairs: size.pairs,
        node: process.version,
        processes,
        at: new Date().toISOString(),
      },
      product: {
        ...p,
        slack_ack_ms: {
          ...ackSummary,
          server_p50: Math.max(...server.map((s) => s.p50)),
          server_p95: Math.max(...server.map((s) => s.p95)),
          server_max: Math.max(...server.map((s) => s.max)),
        },
        prompt_tokens: tokens,
        in_flight_200: wide,
        cores_busy_at_16: coresBusy,
      },
      bare: q,
      ratios: {
        cpu_per_conversation: ratio(p.cpu_ms_per_conversation, q.cpu_ms_per_conversation),
        node_cpu_per_conversation: ratio(p.node_cpu_ms_per_conversation, q.node_cpu_ms_per_conversation),
        postgres_cpu_per_conversation: ratio(p.postgres_cpu_ms_per_conversation, q.postgres_cpu_ms_per_conversation),
        message_to_card_p50: ratio(p.message_to_card_ms.p50, q.message_to_card_ms.p50),
        click_to_executed_p50: ratio(p.click_to_executed_ms.p50, q.click_to_executed_ms.p50),
        throughput_1: ratio(p.throughput_per_s.in_flight_1, q.throughput_per_s.in_flight_1),
        throughput_16: ratio(p.throughput_per_s.in_flight_16, q.throughput_per_s.in_flight_16),
        two_workers_vs_one: ratio(product16two, product16),
        sql_per_message: ratio(p.sql_per_message, q.sql_per_message),
        sql_per_approval: ratio(p.sql_per_approval, q.sql_per_approval),
        checkpoint_bytes_per_turn: ratio(p.checkpoint.bytes_per_turn, q.checkpoint.bytes_per_turn),
        idle_rss: ratio(p.rss_mb.idle_worker, q.rss_mb.idle_worker),
      },
    };
  } finally {
    if (opts.statementsFile && productName) {
      const statements = await cluster.statementProfile(productName).catch(() => []);
      const activity = await cluster.databaseActivity(productName).catch(() => undefined);
      writeFileSync(opts.statementsFile, JSON.stringify({ activity, statements }, null, 2));
    }
    await slack?.close().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
    for (const pool of pools) await pool.end().catch(() => undefined);
    for (const drop of drops) await drop().catch(() => undefined);
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
    compiled.remove();
  }
}
