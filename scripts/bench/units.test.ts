// The bench's arithmetic on its own: percentiles, ratios, goals, and /proc parsing.
import { describe, expect, it } from 'vitest';
import { checkGoals, type Goal } from './goals.js';
import { machineTicks, parseStat } from './proc.js';
import type { BenchResults } from './results.js';
import { percentile } from '../../core/stats.js';
import { ratio, summarize } from './stats.js';

describe('bench arithmetic', () => {
  it('takes nearest-rank percentiles of unsorted samples', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 0.5)).toBe(5);
    expect(percentile(xs, 0.95)).toBe(10);
    expect(percentile([], 0.5)).toBe(0);
    expect(summarize(xs)).toEqual({ n: 10, p50: 5, p95: 10, p99: 10 });
  });

  it('gives product ÷ bare, and no ratio when a side is missing or zero', () => {
    expect(ratio(30, 20)).toBe(1.5);
    expect(ratio(null, 20)).toBeNull();
    expect(ratio(3, 0)).toBeNull();
  });

  it('checks goals by their operator, and marks what was not measured', () => {
    const r = { product: { sql_per_message: 41, sql_per_approval: null }, ratios: { two_workers_vs_one: 1 } };
    const goals: Goal[] = [
      { name: 'sql', op: '<=', limit: 40, value: (x) => x.product.sql_per_message },
      { name: 'approval', op: '<=', limit: 35, value: (x) => x.product.sql_per_approval },
      { name: 'scale', op: '>=', limit: 1, value: (x) => x.ratios.two_workers_vs_one },
      { name: 'strict', op: '<', limit: 1, value: (x) => x.ratios.two_workers_vs_one },
    ];
    expect(checkGoals(r as unknown as BenchResults, goals).map((g) => g.status)).toEqual([
      'missed',
      'unmeasured',
      'ok',
      'missed',
    ]);
  });

  it('reads CPU (own and reaped children) and RSS from a /proc stat line whose name has spaces', () => {
    // pid (comm) state ppid ... utime=14 stime=15 cutime=16 cstime=17 ... rss=24
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[4 - 3] = '77';
    fields[14 - 3] = '10';
    fields[15 - 3] = '5';
    fields[16 - 3] = '3';
    fields[17 - 3] = '2';
    fields[24 - 3] = '256';
    const s = parseStat(42, `42 (postgres: a (b) c) ${fields.join(' ')}`);
    expect(s).toEqual({ pid: 42, ppid: 77, cpuMs: 200, rssBytes: 256 * 4096 });
  });

  it("reads the machine's busy and total CPU ticks from /proc/stat, busy never above total", () => {
    const a = machineTicks();
    expect(a.total).toBeGreaterThan(0);
    expect(a.busy).toBeGreaterThan(0);
    expect(a.busy).toBeLessThanOrEqual(a.total);
    const b = machineTicks();
    expect(b.total).toBeGreaterThanOrEqual(a.total);
  });
});
