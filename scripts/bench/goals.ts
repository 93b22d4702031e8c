/** What the product promises against the bare flow (issue 12), as data: the bench exits 1 when one is missed. */
import type { BenchResults } from './results.js';

export interface Goal {
  name: string;
  op: '<=' | '<' | '>=';
  limit: number;
  value: (r: BenchResults) => number | null | undefined;
}

export const GOALS: Goal[] = [
  {
    name: 'conversations that failed or hung under load',
    op: '<=',
    limit: 0,
    value: (r) => r.product.failed_conversations,
  },
  {
    name: 'CPU per conversation (node + Postgres) ÷ bare',
    op: '<=',
    limit: 1.5,
    value: (r) => r.ratios.cpu_per_conversation,
  },
  { name: 'message → card p50 ÷ bare', op: '<=', limit: 1.5, value: (r) => r.ratios.message_to_card_p50 },
  { name: 'click → executed p50 ÷ bare', op: '<=', limit: 1.5, value: (r) => r.ratios.click_to_executed_p50 },
  { name: 'SQL statements per customer write message', op: '<=', limit: 40, value: (r) => r.product.sql_per_message },
  { name: 'SQL statements per approval', op: '<=', limit: 35, value: (r) => r.product.sql_per_approval },
  { name: 'Slack ack p99 (ms)', op: '<', limit: 50, value: (r) => r.product.slack_ack_ms.p99 },
  {
    name: "a thread's checkpoint total, end ÷ middle (2: flat per turn; 1: bounded)",
    op: '<=',
    limit: 2,
    value: (r) => r.product.checkpoint.flatness,
  },
  {
    name: '50-turn thread checkpoint total (KB)',
    op: '<=',
    limit: 150,
    value: (r) => r.product.checkpoint.total_kb_50,
  },
  { name: 'idle worker + its tool server RSS (MB)', op: '<=', limit: 200, value: (r) => r.product.rss_mb.idle_worker },
  {
    name: '200 conversations in flight: peak RSS of the worker + its tool server (MB)',
    op: '<=',
    limit: 300,
    value: (r) => r.product.in_flight_200.peak_rss_mb,
  },
  {
    name: '200 conversations in flight: failed or hung (past the driver timeout: latency unbounded)',
    op: '<=',
    limit: 0,
    value: (r) => r.product.in_flight_200.failed_conversations,
  },
  {
    name: 'throughput at 16 in flight, 2 workers ÷ 1 worker',
    op: '>=',
    limit: 1,
    value: (r) => r.ratios.two_workers_vs_one,
  },
];

export interface GoalResult {
  name: string;
  op: Goal['op'];
  limit: number;
  value: number | null;
  /** unmeasured: this setup could not measure it (e.g. no pg_stat_statements on a shared server). */
  status: 'ok' | 'missed' | 'unmeasured';
}

const holds = (v: number, op: Goal['op'], limit: number) =>
  op === '<=' ? v <= limit : op === '<' ? v < limit : v >= limit;

export function checkGoals(r: BenchResults, goals: Goal[] = GOALS): GoalResult[] {
  return goals.map((g) => {
    const value = g.value(r) ?? null;
    const status = value === null ? 'unmeasured' : holds(value, g.op, g.limit) ? 'ok' : 'missed';
    return { name: g.name, op: g.op, limit: g.limit, value, status };
  });
}
