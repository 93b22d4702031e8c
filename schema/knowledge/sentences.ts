/*
 * Sentences of the help centre's plain text, shared by the help-centre search (which picks the
 * sentences of a snippet) and the offline planner (which quotes them), so both cut a passage at
 * the same places. A full stop ends a sentence only when a space and a capital (or a digit, a
 * quote, a bracket) follow it: "9:00 a.m. to 2:00 p.m.", "$74.50", "help@example.com" and
 * "example.com" stay whole.
 */

/** Abbreviations that are followed by a capital without ending the sentence ("e.g. Visa", "Dr. Lee"). */
const NEVER_FINAL = new Set(['e.g', 'eg', 'i.e', 'ie', 'mr', 'mrs', 'ms', 'dr', 'st', 'vs', 'approx', 'incl', 'ext']);

/** Abbreviations that go on when a number follows ("Dec. 15", "No. 4", "Apt. 3"). */
const BEFORE_NUMBER = new Set('jan feb mar apr jun jul aug sep sept oct nov dec no nos apt ste fig p pp'.split(' '));

/** A candidate end: terminal punctuation, closing quotes or brackets, then a space before a capital or digit. */
const BOUNDARY = /([.!?]+["”’)\]]*)\s+(?=["“‘([]?[A-Z0-9$])/g;

/** The word just before a full stop at `end` (exclusive), lower-cased, inner dots kept ("e.g", "a.m"). */
function wordBefore(text: string, end: number): string {
  const m = /([A-Za-z][A-Za-z.]*)$/.exec(text.slice(Math.max(0, end - 12), end));
  return m ? m[1]!.toLowerCase() : '';
}

/** Sentences of one passage, in order, whitespace collapsed. */
export function splitSentences(text: string): string[] {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t) return [];
  const out: string[] = [];
  let start = 0;
  for (const m of t.matchAll(BOUNDARY)) {
    const punct = m[1]!;
    const at = m.index!;
    if (punct === '.' || punct.startsWith('.')) {
      const before = wordBefore(t, at);
      // "Dr. Lee", "e.g. Visa", a middle initial ("J. Smith"): the stop shortens a word, the sentence goes on.
      const initial = /^[A-Z]$/.test(t[at - 1] ?? '') && !/[A-Za-z]/.test(t[at - 2] ?? ' ');
      const number = /\d/.test(t[at + m[0].length] ?? '');
      if (NEVER_FINAL.has(before) || initial || (number && BEFORE_NUMBER.has(before))) continue;
    }
    out.push(t.slice(start, at + punct.length).trim());
    start = at + m[0].length;
  }
  out.push(t.slice(start).trim());
  return out.filter(Boolean);
}

/** Paragraphs of a body (blank lines between them), each as its sentences. */
export function paragraphSentences(body: string): string[][] {
  return body
    .split(/\n\s*\n/)
    .map(splitSentences)
    .filter((p) => p.length > 0);
}
