import type { EvalReport } from './run.js';

/**
 * pass^k (tau-bench): the chance that k independent runs of a case all pass, estimated per case
 * from n ≥ k trials with c passes as C(c, k) / C(n, k), averaged over cases. With a deterministic
 * planner it equals pass^1; with a sampled model it falls as k grows, which pass@1 hides.
 */
export function passHatK(perCase: readonly { passes: number; trials: number }[], k: number): number | null {
  if (!perCase.length) return null;
  const choose = (n: number, r: number) => {
    if (r < 0 || r > n) return 0;
    let out = 1;
    for (let i = 1; i <= r; i++) out = (out * (n - r + i)) / i;
    return out;
  };
  let sum = 0;
  for (const { passes, trials } of perCase) {
    if (k < 1 || k > trials) throw new RangeError(`pass^${k} needs 1 <= k <= trials (${trials})`);
    sum += choose(passes, k) / choose(trials, k);
  }
  return sum / perCase.length;
}

export interface RepeatSummary {
  trials: number;
  cases: { id: string; passes: number; trials: number }[];
  /** pass^k for k = 1..trials. */
  pass_hat: { k: number; value: number | null }[];
  /** Cases that passed in some runs and failed in others. */
  flaky: string[];
}

/** Combine K runs of the same set. */
export function summarizeRepeats(reports: readonly EvalReport[]): RepeatSummary {
  const byId = new Map<string, { passes: number; trials: number }>();
  for (const r of reports)
    for (const c of r.cases) {
      const e = byId.get(c.id) ?? { passes: 0, trials: 0 };
      e.trials++;
      if (c.ok) e.passes++;
      byId.set(c.id, e);
    }
  const cases = [...byId].map(([id, e]) => ({ id, ...e }));
  const trials = Math.min(...cases.map((c) => c.trials));
  return {
    trials,
    cases,
    pass_hat: Array.from({ length: trials }, (_, i) => ({ k: i + 1, value: passHatK(cases, i + 1) })),
    flaky: cases.filter((c) => c.passes > 0 && c.passes < c.trials).map((c) => c.id),
  };
}

export function repeatText(set: string, s: RepeatSummary): string {
  const line = s.pass_hat.map((p) => `pass^${p.k} ${p.value === null ? '—' : `${(p.value * 100).toFixed(1)}%`}`);
  return `${set}: ${s.trials} runs, ${line.join(', ')}${s.flaky.length ? `; flaky: ${s.flaky.join(', ')}` : ''}`;
}
