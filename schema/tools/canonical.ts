import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted, undefined dropped, no whitespace. Two argument objects that
 * mean the same thing hash the same; any change, even one character, does not.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export const hashArgs = (canonicalArgs: unknown): string =>
  createHash('sha256').update(canonicalJson(canonicalArgs)).digest('hex');
