/** Percentiles and ratios: the arithmetic of the report, kept apart so it can be tested alone. */
import { percentile } from '../../core/stats.js';

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export const summarize = (xs: readonly number[]): Summary => ({
  n: xs.length,
  p50: round1(percentile(xs, 0.5)),
  p95: round1(percentile(xs, 0.95)),
  p99: round1(percentile(xs, 0.99)),
});

/** product / bare, two decimals; null when either side is missing or bare is zero. */
export function ratio(product: number | null | undefined, bare: number | null | undefined): number | null {
  if (product == null || bare == null || bare === 0) return null;
  return Math.round((product / bare) * 100) / 100;
}
