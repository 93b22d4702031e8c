/*
 * A request taken back in the same message: "switch my email to … — hmm wait no forget it, keep the
 * old one", "pls book a deep clean sat at 9... actually hold off, ill get back to u", "cancel
 * tomorrow's cleaning — oh wait, keep it!!". What comes before the retraction is not asked any more;
 * only the words after it are read for what the message asks.
 */

/** "ignore me", "ignore my last message": a request taken back, for this message's retraction and for withdrawals. */
export const IGNORE_REQUEST = 'ignore (?:me|that|this|my (?:last |previous )?(?:message|msg|request))';

/**
 * Words that take back what was just said, standing as a clause of their own (followed by a
 * clause end), so "keep it at 9" or "never mind the windows" are not read as one. "actually no, 14 Oak St"
 * corrects rather than takes back, so a bare "no" is none.
 */
const RETRACTION = new RegExp(
  String.raw`\b(?:(?:` +
    [
      'never ?mind|nvm|forget (?:it|that|about (?:it|that))|scratch (?:that|this)|scrap (?:that|this)',
      "hold off(?: on (?:it|that|this))?|don'?t bother",
      String.raw`keep it(?: booked)?|keep (?:the|my) (?:old|current|existing|same) (?:one|\w+)|` +
        String.raw`leave it(?: as (?:it is|is)| booked| in)?`,
      IGNORE_REQUEST,
    ].join('|') +
    String.raw`)(?:\s+(?:for now|then|pls|please|thanks))?` +
    String.raw`(?=\s*(?:[.!?,;:—–-]|\p{Extended_Pictographic}|\blol\b|\bsorry\b|$))|` +
    // Said of nothing but what came before, whatever follows: "hmm no on second thoughts keep the personal one".
    // So is "never mind" after "actually", "hmm" or "wait": "… pls — hmm actually nvm my brother says hell do it".
    String.raw`changed my mind|on second thoughts?|(?<=\b(?:actually|hmm|wait|oh)\s+)(?:never ?mind|nvm)\b)`,
  'giu',
);

export interface Retraction {
  /** The words before the last retraction: what was asked and taken back. */
  before: string;
  /** The words after it: all that the message still says. */
  after: string;
}

/** Every retraction in `text` with words before it, first to last. */
export function retractions(text: string): Retraction[] {
  return [...text.matchAll(RETRACTION)]
    .filter((m) => /[a-z0-9]/i.test(text.slice(0, m.index)))
    .map((m) => ({
      before: text.slice(0, m.index).trim(),
      after: text
        .slice(m.index + m[0].length)
        .replace(/^[\s.!?,;:—–-]+/, '')
        .trim(),
    }));
}

/** The last retraction in `text` with words before it, or undefined. */
export const retraction = (text: string): Retraction | undefined => retractions(text).at(-1);

/** What a retraction names as taken back ("nvm the phone, keep the old one"): a field of the record, or a visit. */
const TAKEN_BACK_FIELD: readonly [string, RegExp][] = [
  ['phone', /\b(?:phone|number|cell|mobile)\b/i],
  ['email', /\be-?mail\b/i],
  ['address', /\baddress\b/i],
  ['name', /\bname\b/i],
];

/**
 * The requests of a message that a retraction leaves standing when it names what it takes back: "change my phone
 * to 555-… and book a clean thu 8am. actually nvm the phone, keep the old one" keeps the booking. The sentence of
 * the retraction and the clauses naming the field are dropped; undefined when it names nothing, or nothing is left.
 */
export function keptBesideRetraction(taken: Retraction): string | undefined {
  const sentences = taken.before.split(/(?<=[.!?])\s+/);
  const own = sentences.pop() ?? '';
  const named = TAKEN_BACK_FIELD.filter(([, re]) => re.test(own));
  if (named.length !== 1 || !sentences.length) return undefined;
  const [, field] = named[0]!;
  const kept = sentences
    .join(' ')
    .split(/\s*(?:,|;|\band\b|\balso\b)\s*/i)
    .filter((clause) => clause.trim() && !field.test(clause))
    .join(', ')
    .trim();
  return kept.length >= 3 ? kept : undefined;
}
