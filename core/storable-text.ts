/**
 * Text as Postgres can store it. A `text` column rejects NUL ("invalid byte sequence for encoding
 * UTF8: 0x00") and `jsonb` rejects `\u0000` and unpaired surrogates, so a message carrying either
 * would fail at INSERT time, after the sender was told it arrived. Every piece of user text that
 * crosses into the database passes through here first: NUL is dropped, a lone surrogate becomes
 * U+FFFD (what a UTF-8 decoder shows for it anyway).
 */
export function storableText(s: string): string {
  // String.prototype.toWellFormed is Node 20+; keep the fallback for type-checkers without the lib.
  const wellFormed = (s as string & { toWellFormed?: () => string }).toWellFormed?.() ?? replaceLoneSurrogates(s);
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '') : wellFormed;
}

/** Deep copy of a JSON value with every string made storable (keys included). */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((v) => storableJson(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[storableText(k)] = storableJson(v);
    return out as T;
  }
  return value;
}

function replaceLoneSurrogates(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
