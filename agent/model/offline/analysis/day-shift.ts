/*
 * A move by whole days, counted from the booking's own day: "push it back by a day", "a day
 * later", "bring it forward two days", "back a week". The time of day stays as booked unless the
 * customer names another.
 */

const COUNT: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, couple: 2, 'a couple': 2 };
const QTY = String.raw`(a couple(?: of)?|an?|one|two|three|four|\d)`;
const UNIT = '(days?|weeks?)';

/** What is moved, between the verb and its direction: "it", "the cleaning", "my deep clean". */
const OBJECT = String.raw`(?:(?:it|that|this|(?:my|our|the)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+)?`;
/** "push it back (by) a day", "move the cleaning back two days": later ("call me back a day before" moves nothing). */
const BACK = new RegExp(
  String.raw`\b(?:push|move|moving|put|bump|shift|shove|set)\w*\s+${OBJECT}back\s+${OBJECT}(?:by\s+)?` +
    String.raw`${QTY}\s+${UNIT}\b`,
);
/** "bring it forward a day", "move it up two days": earlier ("push forward" could mean either, so it is not read). */
const FORWARD = new RegExp(
  String.raw`\b(?:bring|move|moving|brought)\s+${OBJECT}(?:forward|up)\s+${OBJECT}(?:by\s+)?${QTY}\s+${UNIT}\b`,
);
/** "a day later", "two days earlier". */
const LATER_EARLIER = new RegExp(String.raw`\b${QTY}\s+${UNIT}\s+(later|earlier)\b`);

/**
 * "make it the day before", "can we do it the week after", "move it to two days before", "could it be the
 * day before": counted from the booking's day, said with a verb that changes it or asks for it to be
 * another day ("call me the day before" or "cancel the day before" move nothing).
 */
const BEFORE_AFTER = new RegExp(
  String.raw`\b(?:(?:make|move|moving|change|switch|put|shift|bump)\w*|(?:can|could|would)\s+(?:we|you|u|they)\s+do` +
    String.raw`|(?:can|could|would)\s+(?:it|that|this)\s+be)` +
    String.raw`\s+${OBJECT}(?:to\s+|for\s+|on\s+)?(?:the\s+)?(?:${QTY}\s+)?${UNIT}\s+(before|after)\b`,
);
/** "the day before instead", "a week after instead": "instead" makes it the booking's new day, whatever the verb. */
const INSTEAD = new RegExp(String.raw`\b(?:the\s+)?(?:${QTY}\s+)?${UNIT}\s+(before|after)\s+instead\b`);

/** "same time the day after", "same time but the week before": the booking's time, another day counted from it. */
const SAME_TIME = new RegExp(
  String.raw`\bsame time\b[^.!?]{0,12}?\b(?:the\s+)?(?:${QTY}\s+)?${UNIT}\s+(before|after)\b`,
);

function amount(qty: string, unit: string): number {
  const n = COUNT[qty.replace(/ of$/, '')] ?? Number(qty);
  return unit.startsWith('week') ? n * 7 : n;
}

/** The shift in days a (normalized) message asks for, negative for earlier; undefined when it names none. */
export function relativeDayShift(t: string): number | undefined {
  const relative = LATER_EARLIER.exec(t);
  if (relative) return amount(relative[1]!, relative[2]!) * (relative[3] === 'earlier' ? -1 : 1);
  const back = BACK.exec(t);
  if (back) return amount(back[1]!, back[2]!);
  const beforeAfter = BEFORE_AFTER.exec(t) ?? INSTEAD.exec(t) ?? SAME_TIME.exec(t);
  if (beforeAfter) {
    const n = amount(beforeAfter[1] ?? 'a', beforeAfter[2]!);
    return beforeAfter[3] === 'before' ? -n : n;
  }
  const forward = FORWARD.exec(t);
  if (forward) return -amount(forward[1]!, forward[2]!);
  return undefined;
}
