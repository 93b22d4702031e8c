import { isoInZone, localParts, zonedTime } from '../../core/time.js';

/**
 * Slack's datepicker and timepicker hold wall-clock values ("2026-12-08", "10:00"); the tools take
 * ISO 8601 with the business offset. The wall clock is the business's, so a manager in another
 * zone picks the time the crew will read, and the offset of that very day is used (DST).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** The pickers' initial values for an instant, as the business's wall clock shows it. */
export function pickerValues(iso: string, timeZone: string): { date: string; time: string } | undefined {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return undefined;
  const p = localParts(at, timeZone);
  return { date: `${p.year}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}` };
}

/**
 * The picked day and time in the business zone as ISO 8601 with that moment's offset. Undefined
 * for values no picker sends, and for a wall time the clocks skip (02:30 on a spring-forward day).
 */
export function isoFromPickers(date: string, time: string, timeZone: string): string | undefined {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return undefined;
  const local = {
    year: Number(d[1]),
    month: Number(d[2]),
    day: Number(d[3]),
    hour: Number(t[1]),
    minute: Number(t[2]),
  };
  const at = zonedTime(local, timeZone);
  const back = localParts(at, timeZone);
  const same =
    back.year === local.year &&
    back.month === local.month &&
    back.day === local.day &&
    back.hour === local.hour &&
    back.minute === local.minute;
  return same ? isoInZone(at, timeZone) : undefined;
}
