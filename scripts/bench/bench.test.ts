// `npm run bench -- --quick` end to end: the report has its shape and its ratios are computed.
// Whether the goals are met is the bench's own exit code, not this test's (timings on CI are noisy).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_NODE_FLAGS } from '../worker-node-flags.js';
import { describe, expect, it } from 'vitest';
import { GOALS } from './goals.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const positive = expect.any(Number);

describe('npm run bench -- --quick', () => {
  it('writes JSON and Markdown with both flows, their ratios and every goal', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-test-'));
    try {
      const json = path.join(dir, 'bench.json');
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/main.ts', '--quick', '--json', json], {
        cwd: ROOT,
        encoding: 'utf8',
        // A minute on an idle two-core runner; several when the machine is shared with other work.
        timeout: 420_000,
      });
      // 0: goals met, 1: a goal missed; anything else (a crash, a config error) is a failure here.
      expect([0, 1], run.stderr).toContain(run.status);
      const { results, goals } = JSON.parse(readFileSync(json, 'utf8'));
      expect(results.meta).toMatchObject({
        mode: 'quick',
        database: 'embedded',
        statements_counted_by: 'pg_stat_statements',
      });
      // Production runs compiled JavaScript (npm run build): the bench measures that, not tsx's overhead.
      const { product, bare } = results.meta.processes as { product: string[]; bare: string[] };
      expect(product.length, product.join('\n')).toBeGreaterThanOrEqual(2);
      // With production's V8 flags (scripts/worker-node-flags.ts).
      expect(product[0]).toBe(`node ${WORKER_NODE_FLAGS.join(' ')} ${product[0]!.split(' ').at(-1)}`);
      expect(product[0]).toMatch(/^node .*\S+\/scripts\/bench\/product-worker\.js$/);
      expect(product.filter((c) => /\/mcp-server\/stdio\.js\b/.test(c))).toHaveLength(1);
      expect(bare[0]).toMatch(/^node \S+\/scripts\/bench\/bare-worker\.js$/);
      expect([...product, ...bare].filter((c) => /\btsx\b|\.ts\b|esbuild/.test(c))).toEqual([]);
      for (const flow of [results.product, results.bare]) {
        expect(flow).toMatchObject({
          cpu_ms_per_conversation: positive,
          postgres_cpu_ms_per_conversation: expect.any(Number),
          message_to_card_ms: { n: 4, p50: positive, p95: positive, p99: positive },
          click_to_executed_ms: { n: 4, p50: positive },
          throughput_per_s: { in_flight_1: positive, in_flight_16: positive },
          sql_per_message: positive,
          sql_per_approval: positive,
          checkpoint: { turns: 10, bytes_per_turn: positive, total_kb_50: positive },
          rss_mb: { idle_worker: positive },
          failed_conversations: expect.any(Number),
          failure_kinds: expect.any(Array),
        });
      }
      expect(results.product.slack_ack_ms).toMatchObject({ n: 6, p99: positive });
      // A crowd at once: every conversation answered (or counted as failed), memory sampled throughout.
      const wide = results.product.in_flight_200;
      expect(wide).toMatchObject({ in_flight: 200, peak_rss_mb: positive, seconds: positive });
      expect(wide.message_to_card_ms.n + wide.failed_conversations).toBe(200);
      expect(wide.peak_rss_mb).toBeGreaterThanOrEqual(results.product.rss_mb.idle_worker);
      expect(results.product.prompt_tokens).toMatchObject({ plan_calls: positive, mean_per_plan_call: positive });
      // A quick run's bare Postgres may use less CPU than /proc can show (10 ms ticks over a few
      // conversations): then there is no ratio to give, and the report says so rather than 0× or ∞.
      const unmeasurable = results.bare.postgres_cpu_ms_per_conversation === 0;
      for (const [name, value] of Object.entries(results.ratios)) {
        if (unmeasurable && name === 'postgres_cpu_per_conversation') expect(value, name).toBeNull();
        else expect(value, name).toEqual(positive);
      }
      expect(goals.map((g: { name: string }) => g.name)).toEqual(GOALS.map((g) => g.name));
      expect(goals.every((g: { status: string }) => g.status !== 'unmeasured')).toBe(true);
      const md = readFileSync(path.join(dir, 'bench.md'), 'utf8');
      expect(md).toContain('| metric | product | bare LangGraph | product ÷ bare |');
      expect(md).toMatch(/CPU per conversation.*\|.*×/);
      expect(run.stdout).toMatch(/^metric +product +bare +ratio/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 430_000);
});
