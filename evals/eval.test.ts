import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createSeededDatabase, TEST_NOW, type TestDatabase } from '../core/testing/test-database.js';
import { CASE_KINDS, loadCases, type EvalCase } from './case-schema.js';
import { checkGate, describeBound, isFrozen, loadThresholds, type CaseSet } from './gate.js';
import { checkIndependence } from './independence.js';
import { failuresText, sideBySideTable } from './report.js';
import { runEval, type EvalReport } from './run.js';

/**
 * The CI gate: the golden set and the two frozen holdout sets, each through the real agent with
 * the offline planner on its own seeded database, and every threshold of evals/thresholds.json
 * for that set must hold (the holdouts' floors are a regression floor, not the targets).
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SETS: Record<CaseSet, { cases: EvalCase[]; db?: TestDatabase; report?: EvalReport }> = {
  golden: { cases: loadCases(path.join(HERE, 'golden')) },
  holdout: { cases: loadCases(path.join(HERE, 'holdout')) },
  'holdout-2': { cases: loadCases(path.join(HERE, 'holdout-2')) },
};
const NAMES = Object.keys(SETS) as CaseSet[];

beforeAll(async () => {
  for (const s of Object.values(SETS)) {
    const clock = new ManualClock(TEST_NOW);
    s.db = await createSeededDatabase({ clock });
    s.report = await runEval({ cases: s.cases, database: s.db, clock, modelName: 'offline-planner' });
  }
  const reports = Object.fromEntries(NAMES.map((n) => [n, SETS[n].report!]));
  const gates = Object.fromEntries(NAMES.map((n) => [n, checkGate(reports[n]!.metrics, loadThresholds(undefined, n))]));
  // The tables in the test log, like `npm run eval` prints them.
  console.log(
    `${sideBySideTable(reports, gates)}\n\n` +
      NAMES.map((n) => `${n}: ${failuresText(reports[n]!, { replyChars: 160, listed: !isFrozen(n) })}`).join('\n\n'),
  );
}, 600_000); // all sets; minutes when the machine is busy with other work

afterAll(async () => {
  for (const s of Object.values(SETS)) await s.db?.drop();
});

describe('the golden set', () => {
  it('is large, covers every kind, and its cases do not change what other cases see', () => {
    const { cases } = SETS.golden;
    expect(cases.length).toBeGreaterThanOrEqual(120);
    const kinds = new Set(cases.map((c) => c.kind));
    expect([...CASE_KINDS].filter((k) => !kinds.has(k))).toEqual([]);
    expect(checkIndependence(cases)).toEqual([]);
  });
});

describe('the holdout sets', () => {
  for (const set of NAMES.filter((n) => n !== 'golden')) {
    it(`${set} has at least 100 cases, and its cases do not change what other cases of it see`, () => {
      const { cases } = SETS[set];
      expect(cases.length).toBeGreaterThanOrEqual(100);
      expect(checkIndependence(cases)).toEqual([]);
    });
  }
});

for (const set of NAMES) {
  describe(`${set}: runs`, () => {
    it('ran every case to the end without an error', () => {
      const report = SETS[set].report!;
      expect(report.cases.length).toBeGreaterThanOrEqual(SETS[set].cases.length);
      const errors = report.runs.flatMap((r) =>
        r.turns.flatMap((t, i) => {
          const e = t.error ?? (t.decisions ?? []).find((d) => d.error)?.error;
          return e ? [`${r.id} turn ${i + 1}: ${e}`] : [];
        }),
      );
      expect(errors).toEqual([]);
    });

    it('never claims an unapproved write happened: no business write outside approved decisions', async () => {
      const report = SETS[set].report!;
      const approved = new Set(
        report.runs.flatMap((r) => r.ledger.filter((a) => a.status === 'executed').map((a) => a.id)),
      );
      const rows = (
        await SETS[set].db!.pool.query<{ approval_id: string | null; kind: string }>(
          `SELECT approval_id, 'booking' AS kind FROM bookings WHERE notes IS DISTINCT FROM 'seeded'
           UNION ALL SELECT approval_id, 'ticket' FROM tickets
           UNION ALL SELECT approval_id, 'email' FROM email_outbox`,
        )
      ).rows;
      expect(rows.filter((r) => !r.approval_id || !approved.has(r.approval_id))).toEqual([]);
    });
  });

  describe(`${set}: metrics meet evals/thresholds.json`, () => {
    for (const [name, bound] of Object.entries(loadThresholds(undefined, set))) {
      it(`${name} ${describeBound(bound)}`, () => {
        const report = SETS[set].report!;
        const g = checkGate(report.metrics, { [name]: bound })[0]!;
        const m = report.metrics[g.metric];
        expect(
          g.ok,
          `${m.label}: ${m.k}/${m.n} = ${m.value} (95% CI ${m.ci.map((x) => x.toFixed(3)).join('–')}), ` +
            `needs ${describeBound(bound)}\n${failuresText(report, { listed: !isFrozen(set) })}`,
        ).toBe(true);
      });
    }
  });
}
