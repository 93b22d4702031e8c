/** Time-zone arithmetic without a dependency: Intl knows every IANA zone's offsets. */

// Building an Intl.DateTimeFormat costs about as much as a hundred uses of one: one per kind and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formatters.set(key, f);
  }
  return f;
}

/** Wall-clock fields (and the zone's UTC offset as "GMT-05:00") of an instant in `timeZone`. */
function wallClock(at: Date, timeZone: string): (field: Intl.DateTimeFormatPartTypes) => string {
  const parts = formatter('wall', timeZone, {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  return (field) => parts.find((p) => p.type === field)?.value ?? '';
}

function offsetMs(at: Date, timeZone: string): number {
  const field = wallClock(at, timeZone);
  const get = (t: Intl.DateTimeFormatPartTypes) => Number(field(t));
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant at which the wall clock in `timeZone` shows the given local time. */
export function zonedTime(
  local: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone: string,
): Date {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0);
  let t = guess - offsetMs(new Date(guess), timeZone);
  // Second pass settles instants next to a DST change.
  t = guess - offsetMs(new Date(t), timeZone);
  return new Date(t);
}

/** Calendar fields of an instant as seen in `timeZone`. */
export function localParts(at: Date, timeZone: string) {
  const parts = formatter('parts', timeZone, {
    hourCycle: 'h23',
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: weekdays.indexOf(get('weekday')),
  };
}

/** "Tue, Dec 1, 10:00 AM EST" in the business's zone: what people read on cards and replies. */
export function formatInZone(at: Date | string, timeZone: string): string {
  return formatter('display', timeZone, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(at));
}

/** Add whole calendar days to a local date (no time-zone involved). */
export function addDays(d: { year: number; month: number; day: number }, n: number) {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), weekday: t.getUTCDay() };
}

/** ISO 8601 with the offset of `timeZone` at that instant: "2026-12-08T10:00:00-05:00". */
export function isoInZone(at: Date, timeZone: string): string {
  const get = wallClock(at, timeZone);
  const tzName = get('timeZoneName'); // "GMT-05:00", or "GMT" for UTC
  const offset = tzName === 'GMT' || tzName === '' ? '+00:00' : tzName.replace('GMT', '');
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}${offset}`;
}
