import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { createSeededDatabase, TEST_NOW, type TestDatabase } from '../core/testing/test-database.js';
import { CASE_KINDS, loadCases } from './case-schema.js';
import { checkGate, describeBound, loadThresholds } from './gate.js';
import { checkIndependence } from './independence.js';
import { failuresText, summaryText } from './report.js';
import { runEval, type EvalReport } from './run.js';

/**
 * The CI gate: the whole golden set through the real agent with the offline planner, on one
 * seeded database, and every threshold of evals/thresholds.json must hold.
 */

const GOLDEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');
const cases = loadCases(GOLDEN);
const thresholds = loadThresholds();

let db: TestDatabase;
let report: EvalReport;
const clock = new ManualClock(TEST_NOW);

beforeAll(async () => {
  db = await createSeededDatabase({ clock });
  report = await runEval({ cases, database: db, clock, modelName: 'offline-planner' });
  // The table in the test log, like `npm run eval` prints it.
  console.log(
    `${summaryText(report, checkGate(report.metrics, thresholds))}\n\n${failuresText(report, { replyChars: 160 })}`,
  );
}, 300_000); // 198 cases; minutes when the machine is busy with other work

afterAll(async () => {
  await db?.drop();
});

describe('the golden set', () => {
  it('is large, covers every kind, and its cases do not change what other cases see', () => {
    expect(cases.length).toBeGreaterThanOrEqual(120);
    const kinds = new Set(cases.map((c) => c.kind));
    expect([...CASE_KINDS].filter((k) => !kinds.has(k))).toEqual([]);
    expect(checkIndependence(cases)).toEqual([]);
  });

  it('ran every case to the end without an error', () => {
    expect(report.cases).toHaveLength(cases.length);
    const errors = report.runs.flatMap((r) =>
      r.turns.flatMap((t, i) =>
        t.error || t.decision?.error ? [`${r.id} turn ${i + 1}: ${t.error ?? t.decision?.error}`] : [],
      ),
    );
    expect(errors).toEqual([]);
  });

  it('never claims an unapproved write happened: no business write outside the decision flows', async () => {
    const approved = new Set(
      report.runs.flatMap((r) => r.ledger.filter((a) => a.status === 'executed').map((a) => a.id)),
    );
    const rows = (
      await db.pool.query<{ approval_id: string | null; kind: string }>(
        `SELECT approval_id, 'booking' AS kind FROM bookings WHERE notes IS DISTINCT FROM 'seeded'
         UNION ALL SELECT approval_id, 'ticket' FROM tickets
         UNION ALL SELECT approval_id, 'email' FROM email_outbox`,
      )
    ).rows;
    expect(rows.filter((r) => !r.approval_id || !approved.has(r.approval_id))).toEqual([]);
  });
});

describe('metrics meet evals/thresholds.json', () => {
  for (const [name, bound] of Object.entries(thresholds)) {
    it(`${name} ${describeBound(bound)}`, () => {
      const g = checkGate(report.metrics, { [name]: bound })[0]!;
      const m = report.metrics[g.metric];
      expect(
        g.ok,
        `${m.label}: ${m.k}/${m.n} = ${m.value} (95% CI ${m.ci.map((x) => x.toFixed(3)).join('–')}), ` +
          `needs ${describeBound(bound)}\n${failuresText(report)}`,
      ).toBe(true);
    });
  }
});
