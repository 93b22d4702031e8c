import { formatInZone } from '../../core/time.js';
import { clip, escapeText } from '../escape.js';

/** "postal_code" → "Postal code". */
export const humanize = (key: string) => {
  const s = key.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/** A dotted argument path as people read it: "changes.address.postal_code" → "Address › Postal code". */
export const labelOf = (path: string) =>
  path
    .split('.')
    .filter((p, i) => !(i === 0 && p === 'changes'))
    .map(humanize)
    .join(' › ');

/** Any argument value as escaped mrkdwn (untrusted). */
export function showValue(v: unknown, max = 500): string {
  if (v === undefined || v === null || v === '') return '_(none)_';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'object') {
    return escapeText(
      clip(
        Object.entries(v as Record<string, unknown>)
          .filter(([, x]) => x !== undefined && x !== null && x !== '')
          .map(([k, x]) => `${humanize(k)}: ${typeof x === 'object' ? JSON.stringify(x) : String(x)}`)
          .join(', '),
        max,
      ),
    );
  }
  return escapeText(clip(String(v), max));
}

/** Leaf values of nested arguments by dotted path. */
export function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      for (const [p, x] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(p, x);
    }
  } else if (prefix) out.set(prefix, value);
  return out;
}

export const when = (at: Date | string, timeZone: string) => formatInZone(at, timeZone);

/** "3 h 20 min ago" style, for App Home. */
export function age(from: Date | string, now: Date): string {
  const mins = Math.max(0, Math.round((now.getTime() - new Date(from).getTime()) / 60_000));
  if (mins < 1) return 'just now';
  if (mins < 60) return `${mins} min`;
  const h = Math.floor(mins / 60);
  if (h < 48) return `${h} h${mins % 60 ? ` ${mins % 60} min` : ''}`;
  return `${Math.floor(h / 24)} days`;
}

export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
