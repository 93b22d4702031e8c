import { readFileSync } from 'node:fs';
import { METRIC_NAMES, type MetricName, type Metrics } from './metrics.js';
import type { EvalReport } from './run.js';

/** What `--json` writes: the sets that ran (and, with --repeat, every run). */
export interface EvalOutput {
  sets: Record<string, Pick<EvalReport, 'metrics' | 'cases'> & Partial<EvalReport>>;
}

/** A `--json` file of this CLI, or of the earlier one-set CLI (a bare report: the golden set). */
export function loadBaseline(file: string): EvalOutput {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<EvalOutput> & Partial<EvalReport>;
  if (raw.sets && typeof raw.sets === 'object') return { sets: raw.sets };
  if (raw.metrics && Array.isArray(raw.cases)) return { sets: { [raw.set ?? 'golden']: raw as EvalReport } };
  throw new Error(`${file}: not an eval report (expected "sets" or "metrics" and "cases")`);
}

export interface SetDiff {
  set: string;
  /** Passed in the baseline, fail now. */
  worse: string[];
  /** Failed in the baseline, pass now. */
  better: string[];
  added: string[];
  removed: string[];
  metrics: { name: MetricName; label: string; before: number | null; after: number | null; delta: number | null }[];
}

export function diffSet(
  set: string,
  now: Pick<EvalReport, 'metrics' | 'cases'>,
  before: EvalOutput['sets'][string],
): SetDiff {
  const was = new Map(before.cases.map((c) => [c.id, c.ok]));
  const is = new Map(now.cases.map((c) => [c.id, c.ok]));
  const metrics = METRIC_NAMES.map((name) => {
    const a = (before.metrics as Partial<Metrics>)[name]?.value ?? null;
    const b = now.metrics[name].value;
    return {
      name,
      label: now.metrics[name].label,
      before: a,
      after: b,
      delta: a === null || b === null ? null : b - a,
    };
  });
  return {
    set,
    worse: [...is].filter(([id, ok]) => !ok && was.get(id) === true).map(([id]) => id),
    better: [...is].filter(([id, ok]) => ok && was.get(id) === false).map(([id]) => id),
    added: [...is.keys()].filter((id) => !was.has(id)),
    removed: [...was.keys()].filter((id) => !is.has(id)),
    metrics,
  };
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export function diffText(d: SetDiff): string {
  const out = [`Against the baseline (${d.set}):`];
  for (const m of d.metrics) {
    if (m.delta === null && m.before === m.after) continue;
    const sign = m.delta === null ? '' : m.delta > 0 ? '+' : m.delta < 0 ? '−' : '±';
    const delta = m.delta === null ? 'n/a' : `${sign}${(Math.abs(m.delta) * 100).toFixed(1)} pts`;
    out.push(`  ${m.label.padEnd(24)} ${pct(m.before).padStart(6)} → ${pct(m.after).padStart(6)}  ${delta}`);
  }
  out.push(`  better (${d.better.length}): ${d.better.join(', ') || '—'}`);
  out.push(`  worse (${d.worse.length}): ${d.worse.join(', ') || '—'}`);
  if (d.added.length) out.push(`  new cases (${d.added.length}): ${d.added.join(', ')}`);
  if (d.removed.length) out.push(`  gone (${d.removed.length}): ${d.removed.join(', ')}`);
  return out.join('\n');
}
