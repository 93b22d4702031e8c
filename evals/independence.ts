import { SERVICES } from '../schema/seed/services.js';
import type { EvalCase } from './case-schema.js';

/**
 * All cases share one seeded database, so a write a case gets approved must not change what
 * another case sees: a customer whose record or calendar a case changes belongs to that case
 * alone, and an approved booking takes crew-hours no other case expects to book.
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

  const writers = new Map<string, string>();
  const takenHours = new Map<number, string>();
  for (const c of cases) {
    for (const turn of c.turns) {
      if (turn.decide?.decision !== 'approve') continue;
      if (c.customer) {
        const other = writers.get(c.customer);
        if (other && other !== c.id) warnings.push(`${c.id} and ${other} both get writes approved for ${c.customer}`);
        writers.set(c.customer, c.id);
      }
      const booking = turn.expect.args?.book_slot;
      const expected = (Array.isArray(booking) ? booking : booking ? [booking] : []) as Record<string, unknown>[];
      for (const b of expected) {
        const start = turn.decide.args?.start_time ?? b.start_time;
        for (const h of hoursOf(turn.decide.args?.service_id ?? b.service_id, start)) takenHours.set(h, c.id);
      }
    }
  }
  for (const c of cases) {
    if (c.customer && writers.has(c.customer) && writers.get(c.customer) !== c.id) {
      warnings.push(`${c.id} uses ${c.customer}, whose record ${writers.get(c.customer)} changes by an approved write`);
    }
    for (const turn of c.turns) {
      const booking = turn.expect.args?.book_slot;
      for (const b of (Array.isArray(booking) ? booking : booking ? [booking] : []) as Record<string, unknown>[]) {
        for (const h of hoursOf(b.service_id, b.start_time)) {
          const owner = takenHours.get(h);
          if (owner && owner !== c.id)
            warnings.push(`${c.id} expects to book ${new Date(h).toISOString()}, an hour ${owner} books for real`);
        }
      }
    }
  }
  return [...new Set(warnings)];
}
