import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { METRIC_NAMES, type Metric, type MetricName, type Metrics } from './metrics.js';

const Bounds = z.partialRecord(
  z.enum(METRIC_NAMES),
  z.union([z.object({ min: z.number().min(0).max(1) }).strict(), z.object({ max: z.number().min(0).max(1) }).strict()]),
);

/**
 * `evals/thresholds.json`: per metric a floor (`min`, higher is better) or a ceiling (`max`);
 * `thresholds` for the golden set, `holdout.thresholds` and `holdout-2.thresholds` for the frozen holdout sets.
 */
export const ThresholdsSchema = z
  .object({
    $comment: z.string().optional(),
    thresholds: Bounds,
    holdout: z.object({ $comment: z.string().optional(), thresholds: Bounds }).strict().optional(),
    'holdout-2': z.object({ $comment: z.string().optional(), thresholds: Bounds }).strict().optional(),
  })
  .strict();
export type Thresholds = z.infer<typeof Bounds>;
/** The golden set is tuned against; the holdout sets only measure (holdout-2 was written last, by an outsider). */
export type CaseSet = 'golden' | 'holdout' | 'holdout-2';

/**
 * The sets that only measure. Their failing cases are counted but never listed by default: an eval
 * that names them in every log teaches whoever reads the log what the planner gets wrong there.
 */
export const FROZEN_SETS: readonly CaseSet[] = ['holdout', 'holdout-2'];
export const isFrozen = (set: string | undefined): boolean => FROZEN_SETS.includes(set as CaseSet);

export const THRESHOLDS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'thresholds.json');

/** The bounds of one set (golden by default); a set without bounds gates nothing. */
export function loadThresholds(file = THRESHOLDS_FILE, set: CaseSet = 'golden'): Thresholds {
  const all = ThresholdsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return set === 'golden' ? all.thresholds : (all[set]?.thresholds ?? {});
}

export interface GateResult {
  metric: MetricName;
  bound: { min: number } | { max: number };
  value: number | null;
  n: number;
  ok: boolean;
}

/** Every metric with a threshold, and whether it holds. A metric with nothing measured fails. */
export function checkGate(metrics: Metrics, thresholds: Thresholds): GateResult[] {
  return (Object.entries(thresholds) as [MetricName, { min: number } | { max: number }][]).map(([name, bound]) => {
    const m: Metric = metrics[name];
    const ok = m.value !== null && ('min' in bound ? m.value >= bound.min - 1e-12 : m.value <= bound.max + 1e-12);
    return { metric: name, bound, value: m.value, n: m.n, ok };
  });
}

export const describeBound = (b: { min: number } | { max: number }) => ('min' in b ? `>= ${b.min}` : `<= ${b.max}`);
