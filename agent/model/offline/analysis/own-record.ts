/*
 * Whose question it is. "When is the cleaner coming?", "which email are my receipts going to?" ask
 * about this customer's own visits or record, which only a lookup of it can answer; "how do
 * reminders work?" asks about the business in general, which the help centre answers. The
 * question is read for its subject (their visit, the worker coming to them, a contact detail of
 * theirs) and for what it asks of it (when, who, how many, which one, still on, on file), so that
 * any phrasing of the same question is read the same way.
 */

/** Asks what happens in a case that may not happen, or how things usually go: never a record lookup. */
export const HYPOTHETICAL =
  /\b(?:what happens|what if|in case|policy|usually|normally|typically|generally|in general)\b/;

/** Asks how things work, or what they may do: the help centre's, unless said as a listed account question. */
const GENERAL = new RegExp(
  String.raw`\b(?:ever|(?:time|arrival) window|window of|if|while|until|should (?:i|we)|` +
    String.raw`how (?:do|does|can|could|would|long|far|much|soon|early|often)|` +
    String.raw`(?:can|could|may) (?:i|we))\b`,
);

/** Said as a question, or as a wish to know ("can't remember what I've got booked"). */
const ASKS = new RegExp(
  String.raw`\?|^(?:when|whens|what|whats|which|who|how many|is|are|do|does|did|have|has|am|will)\b|` +
    String.raw`\b(?:when|whens|what time|what day|which|who|how many|remind me|can'?t remember|not sure|confirm|` +
    String.raw`double check|check)\b|\b(?:did|have) (?:you|u|ya)(?: guys| all)? (?:get|got|receive)\b`,
);

/** What a question asks of a visit: its time, its day, who comes, how many, whether it still stands. */
const VISIT_ASK = new RegExp(
  String.raw`\b(?:when|whens|what time|what day|which day|what date|who|how many|still|again|right|` +
    String.raw`(?:morning|afternoon) or|coming|showing up|turning up|arriving|booked in|got booked|` +
    String.raw`happening|costing|cost me|do i owe|am i paying|meant to be)\b`,
);

const TRADE = `(?:${[
  'cleaners?|plumbers?|guys?|people|person|techs?|technicians?',
  'crew|team|handyman|installers?',
  // "the telly man", "the fan lady"
  String.raw`(?:\w+ )?(?:man|men|lady|woman|fella|bloke)`,
].join('|')})`;
const JOB = String.raw`(?:bookings?|appointments?|visits?|cleaning|clean|repair|install\w*|mounting|thing|job|service)`;

/** The customer's own visit, named by what it is, by who comes, or by what they have with us. */
const VISIT_SUBJECT = [
  // "my handyman thing", "my faucet repair"
  new RegExp(String.raw`\bmy (?:\w+ ){0,2}?${JOB}\b`),
  // "the cleaner", "the plumber guy", "the fan people" on their way
  new RegExp(
    String.raw`\b(?:the|your|ur) (?:\w+ ){0,2}?${TRADE}\b[^.!?]*\b(?:coming|showing up|turning up|arriving|here)\b`,
  ),
  // "the fan guy next week, what time was it again?": who comes, then what is asked of the visit
  new RegExp(String.raw`\bthe (?:\w+ ){0,2}?${TRADE}\b[^.!?]*\b(?:what time|what day|which day)\b`),
  // "which day is the handyman booked": the visit asked of by who comes or what it is
  new RegExp(String.raw`\b(?:which|what) (?:day|time|date) is (?:the|my) (?:\w+ ){0,2}?(?:${TRADE}|${JOB})\b`),
  // "is anyone coming out to me", "who are you sending"
  /\b(?:any ?one|any ?body|some ?one|some ?body|you(?: guys)?|u) (?:\w+ )?(?:coming|sending)\b/,
  // "the tv install - that's still thursday right?"
  new RegExp(String.raw`\bthe (?:\w+ )?${JOB}\b[^.!?]*\bstill\b`),
  // "the wall repair on thursday", "the clean tomorrow": a visit of theirs named by its day
  new RegExp(String.raw`\bthe (?:\w+ ){0,2}?${JOB} (?:on |this |next )?(?:\w+day|tomorrow|today)\b`),
  // "Cleaning on 14th is still 8am, right?": the visit named by its day alone, its time checked
  new RegExp(
    String.raw`(?:^|[.!?]\s+)(?:\w+ )?${JOB} (?:on |this |next )?(?:the )?` +
      String.raw`(?:\w+day|tomorrow|today|\d{1,2}(?:st|nd|rd|th)?)\b[^.!?]*\bstill\b`,
  ),
  // "is tomorrow still happening", "is friday still on"
  /\b(?:is|are) (?:tomorrow|today|\w+day)(?:'s \w+)? still (?:happening|on|going ahead|booked)\b/,
];

/** What they have with us, asked outright: "do I have anything next week", "what I've got booked in". */
const WHAT_I_HAVE = new RegExp(
  String.raw`\b(?:do|did) i have anything\b|\bhave i got\b|\bi(?:'ve| have) got (?:booked|coming|scheduled)\b|` +
    String.raw`\bwhat i(?:'ve| have)(?: got)? booked\b|\b(?:visits?|bookings?|appointments?) (?:have|do) i\b`,
);

const FIELD = '(?:e-?mail(?: address)?|phone(?: number)?|number|address|contact details)';

/** A contact detail of theirs and what is asked of it: which one we have, where things go, if it's still on file. */
const RECORD_ASK = [
  new RegExp(String.raw`\b(?:which|what|whats|what's)\b(?: \w+){0,2}? ${FIELD}\b`),
  new RegExp(
    String.raw`\b${FIELD}\b[^.!?]*\b(?:on file|for me|going to|still|(?:call|text|reach|email) me|coming to)\b`,
  ),
  // Whether it reached us: "did you get my address?", "have u got my new number"
  new RegExp(
    String.raw`\b(?:did|do|have|has) (?:you|u|ya)(?: guys| all)? (?:get|got|receive|have|see|saved?)\b` +
      // "did you get my email" is about a message sent, not the address on file
      String.raw`[^.!?]*\bmy (?:new |updated |current )?(?:e-?mail address|phone(?: number)?|number|address|details)\b`,
  ),
];
const RECORD_OWNER = /\b(?:my|me|i)\b|\b(?:you|u)(?: guys)? (?:have|got|use|using)\b|\bon file\b|\bcoming to\b/;
/** A value or an instruction to change it: a contact change, not a question about the record. */
const CHANGES_RECORD = new RegExp(
  String.raw`@|\d{3}\D?\d{4}|\b(?:change|update|switch|replace|correct|use) (?:my|the|it|to|this)\b|` +
    String.raw`\byour (?:e-?mail|phone|number|address)\b`,
);

/** A day as customers name one: "tomorrow", "wed", "thurs", "the 15th". */
const DAY = String.raw`(?:tomorrow|today|tmrw|(?:mon|tue|wed|thu|fri|sat|sun)\w*|the \d{1,2}(?:st|nd|rd|th)?)`;

/** Whether their visit or plan still stands, or which of two days it is on. */
const STANDS = [
  // "am i still down for thursday", "are we still booked in for the 15th", "am i still on the weekly cleans"
  /\b(?:am i|are we|is it|is that) still (?:down|booked|on|in|scheduled|set)\b/,
  // "is the wall patching next wed or thurs?", "is the cleaning tomorrow or wednesday??"
  new RegExp(
    String.raw`\bis (?:the|my|our) (?:\w+ ){0,2}?(?:${JOB}|\w+ing) (?:on |this |next )?${DAY}` +
      String.raw` or (?:on |next )?${DAY}\b`,
  ),
];

/** Whether a change of theirs reached the record: "did my new number make it onto my account?". */
const CHANGE_LANDED = new RegExp(
  String.raw`\b(?:did|has|have|is)\b[^.!?]*\b(?:my|the) (?:new |updated )?(?:${FIELD}|(?:\w+ )?(?:change|update))\b` +
    String.raw`[^.!?]*\b(?:go(?:ne)? (?:through|thru)|ma(?:k|d)e it|get (?:saved|changed|updated|done|through|thru)|` +
    String.raw`been (?:saved|changed|updated|done))\b`,
);

/** Which detail of theirs a question asks whether a change reached ("did my new number make it on?"), if one. */
export function changeLandedField(t: string): 'phone' | 'email' | 'address' | undefined {
  const m = CHANGE_LANDED.exec(t);
  if (!m || HYPOTHETICAL.test(t)) return undefined;
  if (/\be-?mail\b/.test(m[0])) return 'email';
  if (/\b(?:phone|number)\b/.test(m[0])) return 'phone';
  if (/\baddress\b/.test(m[0])) return 'address';
  return undefined;
}

/**
 * Whether a question asks about the customer's own visits or contact details, and which; undefined
 * when it asks something general (or asks for something to be done).
 */
export function ownRecordQuestion(t: string): 'bookings' | 'contact' | undefined {
  if (HYPOTHETICAL.test(t) || !ASKS.test(t)) return undefined;
  // Asked of a change they made: whatever value they give is what they expect to find, not a new change.
  if (CHANGE_LANDED.test(t)) return 'contact';
  if (GENERAL.test(t)) return undefined;
  if (STANDS.some((re) => re.test(t))) return 'bookings';
  if (RECORD_ASK.some((re) => re.test(t)) && RECORD_OWNER.test(t) && !CHANGES_RECORD.test(t)) return 'contact';
  if (WHAT_I_HAVE.test(t) || (VISIT_ASK.test(t) && VISIT_SUBJECT.some((re) => re.test(t)))) return 'bookings';
  return undefined;
}
