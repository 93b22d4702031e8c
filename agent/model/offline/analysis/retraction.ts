import { detectCues } from './cues.js';

/*
 * A request taken back in the same message ("cancel tomorrow's clean — oh wait no, keep it!!", "book a
 * deep clean sat at 9... actually hold off"): what was asked before the take-back is not asked any more.
 * A take-back followed by a request of its own ("forget it, book saturday instead") is a correction, and
 * the message is read whole as before.
 */

/** Words that take back what came before them in the message. */
const TAKE_BACK = new RegExp(
  String.raw`\b(?:` +
    [
      String.raw`(?:wait|hmm|oh|actually|no)[,.!\s]+(?:wait[,.!\s]+)?no\b(?![- ](?:one|problem|worries)\b)`,
      String.raw`forget (?:it|that|about it|i asked)`,
      'never ?mind|nvm|scratch that|hold off|on second thoughts?',
      String.raw`(?:don'?t|do not) (?:bother|do (?:it|that|anything)|change (?:it|anything))`,
      // "keep it!!", "leave it as it is": at the end of what is said, not "keep the old one as a backup".
      String.raw`(?:keep|leave) (?:it|that|the old one|the (?:old|current|same) \w+|(?:it|everything) as it is)` +
        String.raw`(?=\s*(?:[.!?,;)]|$|(?:pls|please|thanks|thx|sorry|lol)\b))`,
    ].join('|') +
    String.raw`)`,
  'gi',
);

export interface Retraction {
  /** The words the customer still stands by: after the last take-back. */
  text: string;
  retracted: boolean;
}

/** Verbs that ask for a change. */
const WRITE_VERB =
  /\b(?:book|schedule|reschedule|cancel|move|push|change|update|switch|set|add|put|send|e-?mail me|make it)\b/i;

/** A day or a time: after a take-back it is a correction ("no wait, wednesday at 1"), not a retraction. */
const WHEN_WORD = new RegExp(
  String.raw`\b(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?|tomorrow|next week)\b|` +
    String.raw`\b(?:today|tonight) at\b|` +
    String.raw`\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\bat \d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)\b`,
  'i',
);

/** Does this text ask for something on its own (a write, a move, a booking)? */
function asksForSomething(text: string): boolean {
  const c = detectCues(text.toLowerCase());
  return c.book.strong || c.cancelBooking || c.sendEmail || WRITE_VERB.test(text);
}

/**
 * The message with a request it took back set aside. Only a take-back after a request counts ("keep
 * it" alone, or before anything was asked, retracts nothing), and only when nothing new is asked after it.
 */
export function withoutRetracted(text: string): Retraction {
  let last: RegExpExecArray | undefined;
  for (const m of text.matchAll(TAKE_BACK)) last = m as RegExpExecArray;
  if (!last) return { text, retracted: false };
  const before = text.slice(0, last.index);
  const after = text.slice(last.index + last[0].length);
  if (!asksForSomething(before) || asksForSomething(after) || WHEN_WORD.test(after)) return { text, retracted: false };
  return { text: after.replace(/^[\s,.!?:;—–-]+/, '').trim(), retracted: true };
}
