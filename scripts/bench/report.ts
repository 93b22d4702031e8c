/** The report: one table of product, bare and their ratio, then the goals; as Markdown or plain text. */
import type { GoalResult } from './goals.js';
import type { BenchResults } from './results.js';

type Row = [metric: string, product: unknown, bare: unknown, ratio: number | null | undefined];

const show = (v: unknown) => (v === null || v === undefined ? '–' : String(v));

export function rows(r: BenchResults): Row[] {
  const p = r.product;
  const b = r.bare;
  const x = r.ratios;
  return [
    [
      'CPU per conversation, node + Postgres (ms)',
      p.cpu_ms_per_conversation,
      b.cpu_ms_per_conversation,
      x.cpu_per_conversation,
    ],
    [
      '  of which node (worker + tool server)',
      p.node_cpu_ms_per_conversation,
      b.node_cpu_ms_per_conversation,
      x.node_cpu_per_conversation,
    ],
    [
      '    of which the tool server',
      p.tool_server_cpu_ms_per_conversation,
      b.tool_server_cpu_ms_per_conversation,
      null,
    ],
    [
      '  of which Postgres',
      p.postgres_cpu_ms_per_conversation,
      b.postgres_cpu_ms_per_conversation,
      x.postgres_cpu_per_conversation,
    ],
    [
      'message → card p50 / p95 / p99 (ms)',
      triple(p.message_to_card_ms),
      triple(b.message_to_card_ms),
      x.message_to_card_p50,
    ],
    [
      'click → executed p50 / p95 / p99 (ms)',
      triple(p.click_to_executed_ms),
      triple(b.click_to_executed_ms),
      x.click_to_executed_p50,
    ],
    [
      'throughput, 1 in flight (conversations/s)',
      p.throughput_per_s.in_flight_1,
      b.throughput_per_s.in_flight_1,
      x.throughput_1,
    ],
    [
      'throughput, 16 in flight (conversations/s)',
      p.throughput_per_s.in_flight_16,
      b.throughput_per_s.in_flight_16,
      x.throughput_16,
    ],
    ['throughput, 16 in flight, 2 workers', p.throughput_per_s.in_flight_16_two_workers, '–', x.two_workers_vs_one],
    [
      'cores busy at 16 in flight, 1 / 2 workers',
      `${p.cores_busy_at_16.one_worker} / ${p.cores_busy_at_16.two_workers} of ${p.cores_busy_at_16.machine}`,
      `machine: ${p.cores_busy_at_16.machine_one_worker} / ${p.cores_busy_at_16.machine_two_workers}`,
      null,
    ],
    ['conversations failed or hung at 16 in flight', p.failed_conversations, b.failed_conversations, null],
    ['SQL statements per write message', p.sql_per_message, b.sql_per_message, x.sql_per_message],
    ['SQL statements per approval', p.sql_per_approval, b.sql_per_approval, x.sql_per_approval],
    [
      'checkpoint bytes per turn',
      p.checkpoint.bytes_per_turn,
      b.checkpoint.bytes_per_turn,
      x.checkpoint_bytes_per_turn,
    ],
    [
      `checkpoint total after ${p.checkpoint.turns} turns (bytes)`,
      p.checkpoint.total_bytes,
      b.checkpoint.total_bytes,
      null,
    ],
    ['RSS, idle worker + its children (MB)', p.rss_mb.idle_worker, b.rss_mb.idle_worker, x.idle_rss],
    ['RSS, after load (MB)', p.rss_mb.loaded_worker, b.rss_mb.loaded_worker, null],
    [`${p.in_flight_200.in_flight} in flight: peak RSS (MB)`, p.in_flight_200.peak_rss_mb, '–', null],
    [
      `${p.in_flight_200.in_flight} in flight: card / executed p99 (ms)`,
      `${p.in_flight_200.message_to_card_ms.p99} / ${p.in_flight_200.click_to_executed_ms.p99}`,
      '–',
      null,
    ],
    [
      `${p.in_flight_200.in_flight} in flight: failed or hung, seconds`,
      `${p.in_flight_200.failed_conversations}, ${p.in_flight_200.seconds} s`,
      '–',
      null,
    ],
    ['Slack ack p50 / p95 / p99 (ms)', triple(p.slack_ack_ms), '–', null],
    [
      'prompt tokens per plan call (mean / max)',
      `${p.prompt_tokens.mean_per_plan_call} / ${p.prompt_tokens.max_per_plan_call}`,
      '–',
      null,
    ],
  ];
}

const triple = (s: { p50: number; p95: number; p99: number }) => `${s.p50} / ${s.p95} / ${s.p99}`;
const ratioText = (v: number | null | undefined) => (v == null ? '' : `${v}×`);
const MARK = { ok: 'ok  ', missed: 'MISS', unmeasured: 'n/a ' } as const;
const goalLine = (g: GoalResult) => `${MARK[g.status]} ${g.name}: ${show(g.value)} (goal ${g.op} ${g.limit})`;

export function markdown(r: BenchResults, goals: GoalResult[]): string {
  const m = r.meta;
  const wide = r.product.in_flight_200;
  return [
    `Bench (${m.mode}, ${m.rounds} alternating rounds, Postgres ${m.database}, ` +
      `statements by ${m.statements_counted_by}, ${m.planner} planner, Node ${m.node}, ${m.at})`,
    '',
    '| metric | product | bare LangGraph | product ÷ bare |',
    '| --- | ---: | ---: | ---: |',
    ...rows(r).map(([name, p, b, x]) => `| ${name.trim()} | ${show(p)} | ${show(b)} | ${ratioText(x)} |`),
    '',
    `Prompt tokens: ${r.product.prompt_tokens.method}; per call system ${r.product.prompt_tokens.system}, ` +
      `tools ${r.product.prompt_tokens.tools}, contents ${r.product.prompt_tokens.contents}.`,
    ...(r.product.failure_kinds.length
      ? ['', `Product failures under load: ${r.product.failure_kinds.join('; ')}.`]
      : []),
    ...(wide.failure_kinds.length
      ? ['', `Failures with ${wide.in_flight} in flight: ${wide.failure_kinds.join('; ')}.`]
      : []),
    '',
    'Goals:',
    '',
    ...goals.map((g) => `- ${goalLine(g)}`),
  ].join('\n');
}

export function table(r: BenchResults, goals: GoalResult[]): string {
  const widths = [46, 26, 26];
  const pad = (s: string, w: number) => (s.length >= w ? s : s + ' '.repeat(w - s.length));
  const lines = [
    pad('metric', widths[0]!) + pad('product', widths[1]!) + pad('bare', widths[2]!) + 'ratio',
    ...rows(r).map(
      ([name, p, b, x]) => pad(name, widths[0]!) + pad(show(p), widths[1]!) + pad(show(b), widths[2]!) + ratioText(x),
    ),
    '',
    ...goals.map(goalLine),
  ];
  return lines.join('\n');
}
