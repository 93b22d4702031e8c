import type { BaseBooking } from '../conversation.js';
import { normalize } from './text.js';
import type { WhenMention } from './when.js';

/*
 * A request a manager declined (or that lapsed, failed or was taken back) invites another try: "ugh ok,
 * 1pm same day then?", "how about 2 instead?", "what about monday at 10?". Said of nothing else, the new
 * day or time is for the same service, even when asked as a question.
 */

const DECLINED: ReadonlySet<BaseBooking['status']> = new Set(['rejected', 'expired', 'failed', 'withdrawn']);

/** Words that offer a time without adding anything to it ("ok", "then", "how about", "same day"). */
const OFFER_WORDS = new RegExp(
  String.raw`\b(?:ugh|ok|okay|fine|alright|hmm|oh|well|sure|then|instead|please|pls|plz|` +
    String.raw`(?:the )?same day|that day|on that day|how about|what about|or|maybe|perhaps|` +
    String.raw`(?:can|could) (?:we|you|u|i|it) (?:do|get|have|be|try)|would|work|works|do|is|at|on)\b`,
  'g',
);

/** The message offers a new day or time for a declined booking request, and says nothing else. */
export function retriesDeclined(base: BaseBooking | undefined, text: string, when: WhenMention): boolean {
  if (!base || !DECLINED.has(base.status) || !(when.date || when.time)) return false;
  let rest = normalize(text);
  for (const span of when.spans) rest = rest.split(normalize(span)).join(' ');
  return !rest.replace(OFFER_WORDS, ' ').replace(/[^a-z0-9]+/g, '').length;
}
