import { SERVICES } from '../schema/seed/services.js';
import { decisionsOf, type EvalCase, type Turn } from './case-schema.js';
import { expandCases, resolveDates } from './case-clock.js';

/** A turn whose writes get approved: an explicit approval, or an end-state check (which approves all). */
const approvesWrites = (t: Turn) =>
  t.decide !== undefined
    ? decisionsOf(t).some((d) => d.decision === 'approve')
    : t.expect.rows !== undefined || t.expect.no_rows !== undefined;

/** Whether a turn's proposed booking is carried out: approved itself, or by a decision over every proposal. */
const approvesBooking = (t: Turn) =>
  t.decide === undefined ||
  decisionsOf(t).some((d) => d.decision === 'approve' && (d.tool === undefined || d.tool === 'book_slot'));

/**
 * All cases of a set share one seeded database, so a write a case gets approved must not change
 * what another case sees: a customer whose record or calendar a case changes belongs to that case
 * alone, and an approved booking takes crew-hours no other case expects to book.
 * A case repeated from every weekday counts as one case (its repetitions are one owner).
 */
export function checkIndependence(cases: readonly EvalCase[]): string[] {
  const warnings: string[] = [];
  const HOUR = 3_600_000;
  const hoursOf = (serviceId: unknown, start: unknown): number[] => {
    if (typeof start !== 'string') return [];
    const t = new Date(start).getTime();
    if (Number.isNaN(t)) return [];
    const minutes = SERVICES.find((s) => s.id === serviceId)?.duration_minutes ?? 60;
    return Array.from({ length: Math.ceil(minutes / 60) }, (_, i) => t + i * HOUR);
  };
  const asList = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []) as Record<string, unknown>[];
  const expanded = expandCases(cases);
  /** Starts a turn expects to book, with their hours (a move's new hours are not counted: two crews). */
  const expectedHours = (turn: Turn, now: string, edit?: Record<string, unknown>) => {
    const args = resolveDates(turn.expect.args ?? {}, now);
    return [
      ...asList(args.book_slot).flatMap((b) =>
        hoursOf(edit?.service_id ?? b.service_id, edit?.start_time ?? b.start_time),
      ),
    ];
  };

  const writers = new Map<string, string>();
  const takenHours = new Map<number, string>();
  for (const c of expanded) {
    for (const turn of c.turns) {
      if (!approvesWrites(turn)) continue;
      if (c.customer) {
        const other = writers.get(c.customer);
        if (other && other !== c.source_id)
          warnings.push(`${c.source_id} and ${other} both get writes approved for ${c.customer}`);
        writers.set(c.customer, c.source_id);
      }
      // A booking the manager rejects beside an approved address change takes no crew-hours.
      if (!approvesBooking(turn)) continue;
      const edit = decisionsOf(turn).find((d) => d.decision === 'approve')?.args;
      for (const h of expectedHours(turn, c.now, edit)) takenHours.set(h, c.source_id);
    }
  }
  for (const c of expanded) {
    if (c.customer && writers.has(c.customer) && writers.get(c.customer) !== c.source_id) {
      warnings.push(
        `${c.source_id} uses ${c.customer}, whose record ${writers.get(c.customer)} changes by an approved write`,
      );
    }
    for (const turn of c.turns) {
      for (const h of expectedHours(turn, c.now)) {
        const owner = takenHours.get(h);
        if (owner && owner !== c.source_id)
          warnings.push(`${c.source_id} expects to book ${new Date(h).toISOString()}, an hour ${owner} books for real`);
      }
    }
  }
  return [...new Set(warnings)];
}
