import { describeBound, type GateResult } from './gate.js';
import { METRIC_NAMES, type Metric } from './metrics.js';
import type { EvalReport } from './run.js';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** "1412 / 1488 (312 calls)": mean and p95 prompt tokens per plan call, or a dash when not counted. */
export function promptTokensCell(report: Pick<EvalReport, 'promptTokens'>): string {
  const t = report.promptTokens;
  return t ? `${t.mean} / ${t.p95} (${t.plan_calls} calls)` : '—';
}

const PROMPT_TOKENS_LABEL = 'prompt tokens per plan call, mean / p95';

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** The metrics table: metric, k/n, value, 95% Wilson interval, and the gate when given. */
export function metricsTable(report: Pick<EvalReport, 'metrics'>, gate?: GateResult[]): string {
  const rows = [['metric', 'k/n', 'value', '95% CI', ...(gate ? ['gate', ''] : [])]];
  for (const name of METRIC_NAMES) {
    const m: Metric = report.metrics[name];
    const g = gate?.find((x) => x.metric === name);
    rows.push([
      `${m.label}${m.better === 'lower' ? ' (lower is better)' : ''}`,
      `${m.k}/${m.n}`,
      pct(m.value),
      m.n ? `[${pct(m.ci[0])}, ${pct(m.ci[1])}]` : '—',
      ...(gate ? [g ? describeBound(g.bound) : '', g ? (g.ok ? 'ok' : 'FAIL') : ''] : []),
    ]);
  }
  return table(rows);
}

export function kindsTable(report: EvalReport): string {
  const kinds = new Map<string, { n: number; ok: number }>();
  for (const c of report.cases) {
    const k = kinds.get(c.kind) ?? { n: 0, ok: 0 };
    k.n++;
    if (c.ok) k.ok++;
    kinds.set(c.kind, k);
  }
  const rows = [['kind', 'cases', 'passed']];
  for (const [kind, k] of [...kinds].sort((a, b) => a[0].localeCompare(b[0])))
    rows.push([kind, String(k.n), `${k.ok} (${pct(k.ok / k.n)})`]);
  return table(rows);
}

const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** Failing cases with why, and what the agent said. */
export function failuresText(report: EvalReport, opts: { replyChars?: number; listed?: boolean } = {}): string {
  const failing = report.cases.filter((c) => !c.ok);
  if (!failing.length) return 'All cases passed.';
  if (opts.listed === false)
    return `${failing.length} failing cases, not listed (a frozen set; \`--list-frozen\` lists them for an audit).`;
  const runs = new Map(report.runs.map((r) => [r.id, r]));
  const out: string[] = [`Failing cases (${failing.length}):`];
  for (const c of failing) {
    out.push(`\n✗ ${c.id} [${c.kind}${c.customer ? `, ${c.customer}` : ', unlinked'}]`);
    for (const f of c.failures) out.push(`    - ${f}`);
    const run = runs.get(c.id);
    for (const s of c.turns.filter((t) => t.failures.length)) {
      const t = run?.turns[s.turn - 1];
      if (!t) continue;
      out.push(`    turn ${s.turn} > ${clip(t.message, 140)}`);
      out.push(`      reply: ${clip(t.reply || '(none)', opts.replyChars ?? 260)}`);
      for (const d of (t.decisions ?? (t.decision ? [t.decision] : [])).filter((x) => !x.implicit))
        out.push(`      after ${d.decision}: ${clip(d.reply || '(none)', opts.replyChars ?? 260)}`);
    }
  }
  return out.join('\n');
}

export function summaryText(report: EvalReport, gate?: GateResult[]): string {
  const turns = report.runs.reduce((n, r) => n + r.turns.length, 0);
  return [
    `Eval: ${report.cases.length} cases, ${turns} turns, model ${report.model}, ` +
      `clock ${report.now} (${report.timeZone}), ${(report.ms / 1000).toFixed(1)} s`,
    `${PROMPT_TOKENS_LABEL} (Gemini request): ${promptTokensCell(report)}`,
    '',
    metricsTable(report, gate),
    '',
    kindsTable(report),
  ].join('\n');
}

/** Several sets' metrics next to each other: k/n, value and 95% CI per set, and each set's gate. */
export function sideBySideTable(
  sets: Record<string, Pick<EvalReport, 'metrics' | 'promptTokens'>>,
  gates: Record<string, GateResult[]> = {},
) {
  const names = Object.keys(sets);
  const rows = [['metric', ...names.flatMap((n) => [`${n} k/n`, 'value', '95% CI', 'gate'])]];
  for (const name of METRIC_NAMES) {
    const label = sets[names[0]!]!.metrics[name].label;
    rows.push([
      `${label}${sets[names[0]!]!.metrics[name].better === 'lower' ? ' (lower is better)' : ''}`,
      ...names.flatMap((set) => {
        const m: Metric = sets[set]!.metrics[name];
        const g = gates[set]?.find((x) => x.metric === name);
        return [
          `${m.k}/${m.n}`,
          pct(m.value),
          m.n ? `[${pct(m.ci[0])}, ${pct(m.ci[1])}]` : '—',
          g ? `${describeBound(g.bound)} ${g.ok ? 'ok' : 'FAIL'}` : '',
        ];
      }),
    ]);
  }
  // Not a rate: the tokens the Gemini path's request would take, per plan call of the set's run.
  rows.push([PROMPT_TOKENS_LABEL, ...names.flatMap((set) => [promptTokensCell(sets[set]!), '', '', ''])]);
  return table(rows);
}
