/*
 * A sign-off and what follows it ("Thanks,\nA. Name\nA Company Ltd\nname@… | 555-…") is how
 * the customer signs, not what they ask: an email or phone in a signature is no request to put it on file.
 */

/** A line that only signs off. */
const SIGN_OFF = new RegExp(
  String.raw`^[ \t]*(?:(?:many |thanks? so much|thank you so much|thank you|thanks|thx|ta|cheers|` +
    String.raw`(?:kind |best |warm |warmest )?regards|best(?: wishes)?|all the best|sincerely|` +
    String.raw`yours(?: truly| sincerely)?|take care)[ \t]*[,.!]*|--|—)[ \t]*$`,
  'i',
);
/** "Sent from my iPhone": a mail client's line. */
const SENT_FROM = /^[ \t]*sent from my\b[^\n]*$/gim;
/** A signature is a few short lines: a name, a company, contact details. */
const MAX_SIGNATURE_LINES = 6;
const MAX_SIGNATURE_LINE = 90;

const nonEmpty = (lines: string[]) => lines.map((l) => l.trim()).filter(Boolean);

const signatureLike = (lines: string[]) =>
  lines.length > 0 &&
  lines.length <= MAX_SIGNATURE_LINES &&
  lines.every((l) => l.length <= MAX_SIGNATURE_LINE && !/\?/.test(l));

/** The message without its signature block: the lines after the last sign-off line, when they look like one. */
export function withoutSignature(text: string): string {
  const t = text.replace(SENT_FROM, '');
  const lines = t.split('\n');
  for (let i = lines.length - 2; i >= 1; i--) {
    if (!SIGN_OFF.test(lines[i]!)) continue;
    const after = nonEmpty(lines.slice(i + 1));
    return signatureLike(after)
      ? lines
          .slice(0, i + 1)
          .join('\n')
          .trimEnd()
      : t;
  }
  return t === text ? text : t.trimEnd();
}
