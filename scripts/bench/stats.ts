/** Percentiles and ratios: the arithmetic of the report, kept apart so it can be tested alone. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentile (q in 0..1) of unsorted samples; 0 for none. */
export function percentile(xs: readonly number[], q: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
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

export const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
