/**
 * How phone numbers compare: by their digits, without a leading North American country code, so
 * "(555) 201-3344", "555.201.3344" and "+1 555 201 3344" are one number. The lookup, the privacy
 * check of replies and the cards all compare through this.
 */
export function phoneDigits(phone: string): string {
  const d = phone.replace(/\D/g, '');
  return d.length === 11 && d.startsWith('1') ? d.slice(1) : d;
}

/** SQL expression with the same normalisation as `phoneDigits`, for a column. */
export const PHONE_DIGITS_SQL = (col: string) =>
  `(CASE WHEN length(regexp_replace(${col}, '\\D', '', 'g')) = 11
       AND left(regexp_replace(${col}, '\\D', '', 'g'), 1) = '1'
     THEN substr(regexp_replace(${col}, '\\D', '', 'g'), 2) ELSE regexp_replace(${col}, '\\D', '', 'g') END)`;

/** Do two written phone numbers name the same number? */
export const samePhone = (a: string, b: string): boolean => phoneDigits(a) === phoneDigits(b);
