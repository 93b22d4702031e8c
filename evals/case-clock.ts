import { TEST_NOW, TEST_TZ } from '../core/testing/constants.js';
import { addDays, localParts, zonedTime } from '../core/time.js';
import type { EvalCase } from './case-schema.js';

/**
 * Per-case clocks. A case runs at the eval clock unless it sets `now`; `weekdays: "all"` runs it
 * once from each day of the week, so relative dates ("friday", "the monday after next") are tried
 * from every weekday and not only from Monday 09:00. Expectations name such times with `$date`.
 */

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** A case as it runs: its clock resolved, weekday repetitions expanded (id `<id>@mon`…). */
export type ClockedCase = EvalCase & { now: string; source_id: string };

export function expandCases(cases: readonly EvalCase[], base: string = TEST_NOW, timeZone = TEST_TZ): ClockedCase[] {
  const baseMs = new Date(base).getTime();
  return cases.flatMap((c): ClockedCase[] => {
    const now = c.now ?? base;
    if (new Date(now).getTime() < baseMs) throw new RangeError(`${c.id}: now ${now} is before the eval clock ${base}`);
    if (c.weekdays !== 'all') return [{ ...c, now, source_id: c.id }];
    const day = localParts(new Date(base), timeZone);
    const time = localParts(new Date(now), timeZone);
    return Array.from({ length: 7 }, (_, i) => {
      const d = addDays(day, i);
      const at = zonedTime({ ...d, hour: time.hour, minute: time.minute }, timeZone).toISOString();
      return { ...c, id: `${c.id}@${WEEKDAYS[d.weekday]}`, now: at, source_id: c.id };
    });
  });
}

const DATE_EXPR = /^(today|tomorrow|sun|mon|tue|wed|thu|fri|sat)(?:\+(\d+)([dw]))? (\d{1,2}):(\d{2})$/;

/**
 * A local time relative to the clock: `today`/`tomorrow`, or a weekday meaning the first such day
 * strictly after today ("friday" said on a Friday is next week's), then an optional `+Nd`/`+Nw`,
 * then `HH:MM`. "the friday after next" is `fri+1w`. Returns the instant.
 */
export function resolveDate(expr: string, now: Date | string, timeZone = TEST_TZ): Date {
  const m = DATE_EXPR.exec(expr.trim().toLowerCase());
  if (!m) throw new SyntaxError(`$date "${expr}": expected e.g. "fri 10:00", "tomorrow 9:00", "mon+1w 13:00"`);
  const today = localParts(new Date(now), timeZone);
  let offset = 0;
  if (m[1] === 'tomorrow') offset = 1;
  else if (m[1] !== 'today') {
    const want = WEEKDAYS.indexOf(m[1] as (typeof WEEKDAYS)[number]);
    offset = (want - today.weekday + 7) % 7 || 7;
  }
  if (m[2]) offset += Number(m[2]) * (m[3] === 'w' ? 7 : 1);
  const d = addDays(today, offset);
  return zonedTime({ ...d, hour: Number(m[4]), minute: Number(m[5]) }, timeZone);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Replace every `{ "$date": expr }` in an expectation with the ISO instant it means at `now`. */
export function resolveDates<T>(value: T, now: Date | string, timeZone = TEST_TZ): T {
  if (Array.isArray(value)) return value.map((v) => resolveDates(v, now, timeZone)) as T;
  if (!isRecord(value)) return value;
  if (typeof value.$date === 'string' && Object.keys(value).length === 1)
    return resolveDate(value.$date, now, timeZone).toISOString() as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveDates(v, now, timeZone)])) as T;
}
