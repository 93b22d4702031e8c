/** One row of the chaos table: what a trial tried and what the database says came of it. */
export interface TrialResult {
  name: string;
  trials: number;
  refused: number;
  executed: number;
  lost: number;
  duplicated: number;
  crashed: number;
  unauthorized: number;
  /** Expectations that did not hold (wrong status codes, unhealthy workers, leaked data...). */
  failures: string[];
  /** Evidence for the failures: counts, log lines, ids. */
  evidence: string[];
  skipped?: string;
  seconds: number;
}

export const emptyResult = (name: string): TrialResult => ({
  name,
  trials: 0,
  refused: 0,
  executed: 0,
  lost: 0,
  duplicated: 0,
  crashed: 0,
  unauthorized: 0,
  failures: [],
  evidence: [],
  seconds: 0,
});

export const failed = (r: TrialResult) =>
  !r.skipped && (r.lost > 0 || r.duplicated > 0 || r.crashed > 0 || r.unauthorized > 0 || r.failures.length > 0);

export function totals(results: TrialResult[]): TrialResult {
  const t = emptyResult('total');
  for (const r of results) {
    for (const k of [
      'trials',
      'refused',
      'executed',
      'lost',
      'duplicated',
      'crashed',
      'unauthorized',
      'seconds',
    ] as const)
      t[k] += r[k];
    t.failures.push(...r.failures.map((f) => `${r.name}: ${f}`));
  }
  return t;
}

const verdict = (r: TrialResult) => (r.skipped ? 'skipped' : failed(r) ? 'FAIL' : 'ok');

export function markdown(results: TrialResult[], meta: { mode: string; seed: number }): string {
  const rows = [...results, totals(results)];
  const lines = [
    `# Chaos suite (${meta.mode}, seed ${meta.seed})`,
    '',
    '| trial | trials | refused | executed | lost | duplicated | crashed workers | unauthorized ' +
      '| failed expectations | result | s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.trials} | ${r.refused} | ${r.executed} | ${r.lost} | ${r.duplicated} | ${r.crashed} ` +
        `| ${r.unauthorized} | ${r.failures.length} ` +
        `| ${r.name === 'total' ? (rows.slice(0, -1).some(failed) ? 'FAIL' : 'ok') : verdict(r)} ` +
        `| ${Math.round(r.seconds)} |`,
    ),
  ];
  for (const r of results) {
    if (r.skipped) lines.push('', `**${r.name}** skipped: ${r.skipped}`);
    if (!r.failures.length && !r.evidence.length) continue;
    lines.push('', `## ${r.name}`);
    for (const f of r.failures) lines.push(`- ${f}`);
    const ev = r.evidence.slice(0, 25);
    if (ev.length)
      lines.push(
        '',
        'Evidence:',
        '',
        '```',
        ...ev.map((e) => e.slice(0, 600)),
        ...(r.evidence.length > ev.length ? [`… ${r.evidence.length - ev.length} more`] : []),
        '```',
      );
  }
  return lines.join('\n') + '\n';
}
