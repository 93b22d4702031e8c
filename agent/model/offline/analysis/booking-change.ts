import type { PlanContext } from '../../../plan-context.js';
import { isInformationQuestion, requestPart } from './cues.js';
import { matchServices } from './services.js';
import { clip, isRecord, normalize, ordinalOf } from './text.js';
import type { ChangeKind } from '../../../../schema/business/change-policy.js';
import { extractWhen, localOf, type WhenMention } from './when.js';

/*
 * Reading a request to move or cancel a booking the customer already has: which booking the words
 * point at ("my deep clean", "the one on the 9th", "friday's visit") and, for a move, the words
 * that give the new time ("… to wednesday at 2pm").
 */

export type { ChangeKind } from '../../../../schema/business/change-policy.js';
export { BOOKING_CHANGE_TOOL as CHANGE_TOOLS, BOOKING_CHANGE_TOOLS } from '../../../../schema/tools/catalog.js';

/** One of lookup_customer's upcoming_bookings, as the planner keeps it. */
export interface UpcomingBooking {
  id: string;
  service_id: string;
  service_name: string;
  starts_at: string;
  price_cents?: number;
}

const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
/** What a booking is called: the visit, or who comes for it ("the handyman on the 21st", "the cleaners friday"). */
const BOOKED_THING =
  '(?:booking|appointment|visit|cleaning|clean|repair|install\\w*|reservation|mount\\w*|patch|hour|service|one|thing|' +
  'handym[ae]n|plumber|electrician|cleaners?|technician|installer|guy|person|people|ppl|lady|fella)';
const DAY_WORD = `(?:tomorrow|today|tonight|${WEEKDAY}|next week)`;
const PART_OF_DAY = String.raw`(?:\s+(?:morning|afternoon|evening)'?s?)?`;
/** "tomorrow's", "tomorrow morning's", "friday afternoons": a day said of the booking, possessive or not. */
const DAY_OF = `${DAY_WORD}(?:'?s)?${PART_OF_DAY}`;
/** The same, possessive only: "friday's cleaning" is theirs, "a friday cleaning" may be one to book. */
const DAYS = String.raw`${DAY_WORD}(?:'?s${PART_OF_DAY}|\s+(?:morning|afternoon|evening)'?s)`;
/** A day after the booking's name: "on thursday", "on the 14th", "tomorrow", "this friday". */
const ON_DAY =
  String.raw`(?:(?:(?:on|for|this|next)\s+)?(?:the\s+\d{1,2}(?:st|nd|rd|th)?|${WEEKDAY}|tomorrow|today)|` +
  // "the faucet thing on wed": a short day name, after the word that makes it one ("sun", "wed" are words too).
  String.raw`(?:on|this|next)\s+(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun))\b`;
/**
 * A booking they have, named by its service (or "thing") and its day: "the window cleaning on the
 * 14th", "that wall patching thing on thursday", "my deep clean". "A cleaning on friday" asks for one.
 */
const NAMED_BOOKING = new RegExp(
  // "the cleaning of tomorrow", "the appointment of wednesday": the day said after "of".
  String.raw`\b(?:(?:the|my)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}s?\s+of\s+${DAY_WORD}|` +
    String.raw`(?:the|that|this)\s+(?:[a-z-]+\s+){0,3}?${BOOKED_THING}s?\s+${ON_DAY}|` +
    String.raw`(?:my|our)\s+(?:[a-z-]+\s+){0,3}?${BOOKED_THING}\b|${DAYS}\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\b)`,
);
/**
 * "window cleaning on the 19th — could we do the saturday before instead": a visit named by its service and day
 * to open the message, with no "my" or "the"; a booking of theirs only when another time is asked "instead".
 */
const BARE_NAMED_AT_START = new RegExp(String.raw`^\s*(?:[a-z-]+\s+){0,2}?${BOOKED_THING}s?\s+${ON_DAY}`);

/**
 * Whether the words name one booking the customer has by its day or service ("tomorrow's cleaning", "my handyman
 * visit", "the tv install on the 16th"); "my booking" alone names none.
 */
export function namesOwnBooking(text: string, services: PlanContext['services']): boolean {
  const named = NAMED_BOOKING.exec(normalize(text))?.[0];
  if (!named) return false;
  return (
    new RegExp(String.raw`\b(?:${DAY_WORD}|\d{1,2}(?:st|nd|rd|th)\b)`).test(named) ||
    matchServices(named, services).matches.length > 0
  );
}

/** "can the guy do friday instead", "instead on the 15th": another day or time for the booking named. */
const CLOCK = String.raw`\d{1,2}(?::\d{2})?\s*(?:am|pm)`;
const WHEN_WORD =
  String.raw`(?:${WEEKDAY}|tomorrow|the\s+\d{1,2}(?:st|nd|rd|th)?|${CLOCK}|next week|` +
  String.raw`(?:in the\s+)?(?:morning|afternoon|evening))`;
const INSTEAD_WHEN = new RegExp(
  // "thursday 9am any good instead?", "the saturday before instead": a few words may come between.
  String.raw`\b${WHEN_WORD}(?:\s+[a-z]+){0,3}?\s+instead\b(?!\s+of)|\binstead\s+(?:on\s+|at\s+)?${WHEN_WORD}|` +
    // "could the handyman come fri 11th at 11 instead": an hour alone, before "instead".
    String.raw`\bat\s+\d{1,2}(?::\d{2})?\s+instead\b(?!\s+of)`,
);
/** "fri 18th -> thurs 17th": an arrow from the time a booking has to its new one. */
const ARROW = /\s(?:->|→|=>)\s/;
/**
 * Said of a booking already named: "can it be 11 instead of 9?", "can we make it thurs 17th, 2pm?", "fri 18th ->
 * thurs 17th": another time put in place of the one it has.
 */
const IN_PLACE_OF = new RegExp(
  String.raw`\b(?:instead of|rather than)\s+(?:the\s+)?(?:\d|${WEEKDAY}|tomorrow|noon|morning|afternoon)|` +
    String.raw`\b(?:make it|make that)\b|${ARROW.source}|` +
    // "the fan install on the 18th, could it be same time but the monday after?"
    String.raw`\b(?:could|can|would) it be\b`,
);
/** "fan install fri 18th -> …": a visit named by its service and day, then an arrow to its new day. */
const ARROWED_BOOKING = new RegExp(String.raw`\b${BOOKED_THING}\b[^.!?]{0,30}?${ARROW.source}`);
/** "could the handyman come fri 11th at 11 instead": the one coming for a visit, asked to come another time. */
const COME_INSTEAD = new RegExp(
  String.raw`\b(?:the|my|our)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\s+(?:come|do it|be here|be there)\b` +
    String.raw`[^.!?]*\binstead\b(?:(?!\s+of)|` +
    // "can the handyman come thursday at 10 instead of wednesday?": the day it has, after "instead of".
    String.raw`\s+of\s+(?:the\s+)?(?:${WEEKDAY}|tomorrow|\d))|` +
    // "can the cleaners come later on the 14th? 8am is brutal": the visit they have, at another time that day.
    String.raw`\b(?:the|my|our)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\s+(?:come|start|arrive)\s+` +
    String.raw`(?:a (?:bit|little) |an hour |\d+ hours? )?(?:later|earlier)\b`,
);
/** "my handyman visit on the 15th, can we do a different time same day": another time for the booking named. */
const DIFFERENT_TIME =
  /\b(?:can|could) (?:we|you|i|it)\b[^.!?]*\b(?:dif+erent|other|another|new) (?:time|day|date|slot)\b/;
/** "is it possible to change for thursday 17": said of a booking named, another day for it. */
const CHANGE_TO_DAY = new RegExp(
  String.raw`\b(?:change|switch) (?:it |that |this )?(?:to|for) (?:the\s+)?` +
    String.raw`(?:${WEEKDAY}|tomorrow|next|\d{1,2}(?:st|nd|rd|th)?\b)`,
);
const MOVE_EXISTING = [
  /\breschedul\w*\b/,
  new RegExp(
    // "prepone": Indian English for bringing a booking forward.
    String.raw`\b(?:move|moving|push|bump|postpone|prepone|shift|shove)\s+(?:back\s+|forward\s+)?` +
      String.raw`(?:my|our|the|it|that|this|tomorrow'?s|${WEEKDAY}'?s)\b`,
  ),
  /\bchange (?:the )?(?:time|day|date) (?:of|for|on) (?:my|our|the|it|that)\b/,
  // "is there any way to swap the thermostat install to the morning": the booking put at another time.
  // "swap my handyman hour on the 21st to the friday before": its day said before where it goes.
  new RegExp(
    String.raw`\b(?:swap|switch)\s+(?:my|our|the)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\s+` +
      String.raw`(?:on\s+[^.!?]{1,20}?\s+)?(?:to|for)\b`,
  ),
  // "i need to change the window cleaning": the booking itself (not "change it to a deep clean").
  new RegExp(String.raw`\bchange (?:my|our|the) (?:[a-z-]+ ){0,2}${BOOKED_THING}\b(?! (?:to|into|for) (?:a|an)\b)`),
  /\bbe (?:moved|rescheduled|pushed)\b/,
  // "please pass it to thursday at 9": the booking just named, put on another day.
  new RegExp(String.raw`\b(?:pass|put|switch|shift)\s+(?:it|that|this|them)\s+(?:to|for|till|until|on)\s+${WHEN_WORD}`),
  // "could u bring my ceiling fan appt forward from fri 18th": earlier, in everyday words.
  /\bbring (?:(?:my|our|the|it|that|this)\b[^.!?]{0,40}?\s)?(?:forward|forwards|earlier)\b/,
  // "can the faucet repair move to friday", "could my visit shift from wed to thu": the booking as the subject.
  // "can tomorrows 8am clean go to thursday at 9": named by its day (and hour) instead.
  new RegExp(
    String.raw`\b(?:my|our|the|that|this|${DAY_OF})\s+(?:[a-z0-9:-]+\s+){0,3}?${BOOKED_THING}\s+` +
      String.raw`(?:move|shift|go|be pushed|get moved)\s+(?:back\s+|forward\s+)?(?:from|to)\b`,
  ),
  // "could my cleaning on the 14th start at 10 instead of 8?": their booking at another time than it has.
  new RegExp(
    String.raw`\b(?:my|our)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\b[^.!?]*\b(?:start|be|happen|begin)\b` +
      String.raw`[^.!?]*\b(?:instead of|rather than)\b`,
  ),
  // "for my tv mount on the 16th can we do 10am instead of 2pm": another time instead of the one it has.
  new RegExp(
    String.raw`\b(?:my|our)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\b[^.!?]*\b(?:instead of|rather than)\s+` +
      String.raw`(?:the\s+)?(?:\d|${WEEKDAY}|tomorrow|noon|(?:the\s+)?(?:morning|afternoon))`,
  ),
  // "can my faucet repair wed be later in the day?": their booking said to be earlier or later.
  new RegExp(
    String.raw`\b(?:my|our)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\b[^.!?]*\bbe\s+(?:a bit |a little |an hour |` +
      String.raw`a few hours |\w+ )?(?:later|earlier)\b`,
  ),
  // "can the tv thing be friday instead?", "can the fan install on the 18th be a bit later?": asked of the booking.
  // "any chance the thermostat install could happen earlier?": the same, the booking as the subject.
  new RegExp(
    String.raw`\b(?:(?:can|could|would)\s+the\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\b[^.!?]*\bbe|` +
      String.raw`\bthe\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\s+(?:can|could|would)\s+(?:happen|be|take place))\s+` +
      String.raw`(?:(?:a bit |a little |an hour |a few hours |\w+ )?(?:later|earlier|sooner)|` +
      String.raw`(?:on\s+)?${WHEN_WORD}\s+instead)\b`,
  ),
];
/** A weekday, short or in full ("tue", "weds", "thursday"). */
const ANY_WEEKDAY = '(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?';
const CANCEL_EXISTING = [
  // "cancel tue windows", "cancel tomorrow's clean": the day, then what the visit is.
  new RegExp(
    String.raw`\bcancel(?:l?ing)?\s+(?:my\s+|the\s+|our\s+)?(?:${ANY_WEEKDAY}|tomorrow|today)(?:'?s)?\s+` +
      // "cancel thurs tv mount": what the visit is may be a word of two letters.
      String.raw`(?!(?:and|or|if|but|because|so|then|please|pls|too|as|at|for|morning|afternoon|evening|` +
      String.raw`to|on|in|it|is|by|we|me|my|no|ok|up)\b)[a-z]{2,}`,
  ),
  // "scrap the drywall on wed 16th": a visit named by what it is for and its day.
  new RegExp(
    String.raw`\b(?:cancel(?:l?ing)?|call(?:ing)? off|scrap|scrapping|withdraw(?:ing)?)\s+(?:my|our|the|that)\s+` +
      String.raw`(?:[a-z-]+\s+){1,3}?` +
      ON_DAY,
  ),
  // "one of my Saturdays won't work any more — please cancel it": one of their visits, which is still to ask.
  new RegExp(
    String.raw`\bone of (?:my|our) (?:${ANY_WEEKDAY}s|bookings|visits|appointments|cleanings)\b[^.!?]*\bcancel|` +
      String.raw`\bcancel\w*\s+one of (?:my|our) (?:${ANY_WEEKDAY}s|bookings|visits|appointments|cleanings)\b`,
  ),
  new RegExp(
    // "call off the tv mounting on the 16th", "scrap my clean": cancel in everyday words.
    // "kindly withdraw my ceiling fan appointment": a visit withdrawn is cancelled (a request withdrawn is not one).
    String.raw`\b(?:cancel(?:l?ing)?|call(?:ing)? off|scrap|scrapping|withdraw(?:ing)?)\s+` +
      String.raw`(?:my|our|the|this|that|${DAY_OF})\s+` +
      String.raw`(?:[a-z-]+\s+){0,3}?${BOOKED_THING}\b(?!\s+request)`,
  ),
];
/**
 * "cancel it" / "just cancel" / "cancel pls" said of a booking under discussion (not "cancel that
 * request", not "cancel my card").
 */
const CANCEL_PRONOUN = new RegExp(
  String.raw`\b(?:just cancel|cancel it|cancel (?:it|the whole thing) instead|call (?:it|the whole thing) off)\b` +
    String.raw`(?!\s+request)|` +
    String.raw`\bcancel(?:\s+(?:pls|plz|please|thanks|thx|ty))?\s*(?:[.!]+\s*)?$|` +
    String.raw`\b(?:pls|plz|please) cancel\b(?!\s+\w)`,
);
/**
 * "the handyman on the 21st isn't needed any more", "we don't need my window clean on friday now": the
 * booking itself said to be unwanted ("the cleaners on friday said a ladder isn't needed" is not).
 */
const NOT_NEEDED = new RegExp(
  String.raw`(?:${NAMED_BOOKING.source})\s+(?:is ?n[o']t|is not|are ?n[o']t|are not|no longer|not) ` +
    String.raw`(?:needed|required|necessary)\b|` +
    // "fridays install is pointless now": the visit itself said to be of no use any more.
    String.raw`(?:${NAMED_BOOKING.source})(?:'s|\s+is|\s+are)\s+(?:now\s+)?(?:pointless|unnecessary|redundant|` +
    String.raw`no use|useless)\b|` +
    // "we won't be needing the handyman on the 15th after all".
    String.raw`\b(?:don'?t|do not|no longer|won'?t|wont|will not) (?:be )?need(?:ing)? (?:${NAMED_BOOKING.source})|` +
    // "you can take me off saturday's schedule": the customer taken off the day's visits.
    String.raw`\btake (?:me|us) off (?:the |${DAYS}\s+|${DAY_WORD}'?s\s+)?(?:schedule|calendar|list|rota|books)\b|` +
    // "we won't be needing saturday's window people after all": the visit named by its day and who comes.
    String.raw`\b(?:won'?t|wont|will not|no longer) (?:be )?needing (?:${DAYS}|${DAY_WORD}'?s)\s+(?:[a-z-]+\s+){0,2}?` +
    String.raw`(?:people|person|guys?|crew|team|cleaners?|techs?|technicians?|${BOOKED_THING})\b|` +
    // "we dont need ur guy thursday after all", "the drywall guy doesnt need to come thursday"
    String.raw`\b(?:don'?t|do not|no longer|won'?t|wont|will not) need (?:ur|your|the) (?:[a-z-]+\s+){0,2}?` +
    String.raw`${BOOKED_THING}\s+(?:on\s+|this\s+|next\s+)?(?:${WEEKDAY}|tomorrow|the\s+\d{1,2}(?:st|nd|rd|th)?)|` +
    String.raw`\b(?:the|ur|your|our|my) (?:[a-z-]+\s+){0,2}?${BOOKED_THING}\s+(?:doesn'?t|does not|won'?t|wont|` +
    String.raw`no longer) (?:need|have) to come\b|` +
    // "dont need the windows done tmrw after all": the job, done on the day the booking has.
    String.raw`\b(?:don'?t|do not|no longer|won'?t|wont) need (?:the|my|our) (?:[a-z-]+\s+){1,2}?` +
    String.raw`(?:done|doing|cleaned|fixed|fitted|mounted|installed|put up)\s+(?:on\s+)?` +
    String.raw`(?:${WEEKDAY}|tomorrow|tmrw|tmr|the\s+\d{1,2}(?:st|nd|rd|th)?)`,
);
/**
 * "the wall repair on the 16th doesnt work for me anymore", "wed doesnt work for the handyman", "monday's no good
 * for the cleaning now": the booking's day no longer suits, so it moves (to a time still to ask, unless given).
 */
const DOESNT_SUIT =
  String.raw`(?:'?s|\s+is)?\s+(?:(?:doesn'?t|does not|won'?t|wont|will not|no longer) work|` +
  String.raw`(?:is\s+)?(?:no good|not good|a no go))\b`;
const DAY_DOESNT_SUIT = new RegExp(
  String.raw`(?:${NAMED_BOOKING.source})${DOESNT_SUIT}|` +
    // "I'm afraid Saturday no longer suits us", "cant do the 15th anymore": a day that did suit, so one booked.
    String.raw`(?:\b${DAY_OF}|\bthe\s+\d{1,2}(?:st|nd|rd|th)?)\s+no longer (?:suits?|works?)\b|` +
    // "…backordered until after christmas, so saturday is no good": a reason, then the booked day given up.
    String.raw`\bso\s+(?:${DAY_OF}|the\s+\d{1,2}(?:st|nd|rd|th)?)(?:'s|\s+is)\s+(?:no good|not going to work|out)\b|` +
    String.raw`\b(?:can'?t|cannot|can not) (?:do|make) ` +
    String.raw`(?:${DAY_OF}|the\s+\d{1,2}(?:st|nd|rd|th)?)\s+(?:any ?more|now)\b|` +
    // "cant make my cleaning on the 14th anymore": the same, said of the customer.
    String.raw`\b(?:can'?t|cannot|can not|won'?t be able to|not able to) make (?:it to )?(?:${NAMED_BOOKING.source})|` +
    // A day said not to suit the booking named right after it ("for the handyman"), not a day for a new visit.
    String.raw`(?:\b${DAY_OF}|\bthe\s+\d{1,2}(?:st|nd|rd|th)?)${DOESNT_SUIT}(?:\s+any ?more|\s+now)?\s+` +
    String.raw`(?:for|with)\s+(?:the|my|our)\s+(?:[a-z-]+\s+){0,2}?${BOOKED_THING}\b`,
);
/** Asking what would happen ("if I need to move it…", "how do I cancel…") changes nothing. */
const HYPOTHETICAL_CHANGE = new RegExp(
  String.raw`\b(?:if|when|what if|in case|before|how late can|until when can|how do|how can|can i still) ` +
    String.raw`(?:i|we|you)\b[^.!?]*\b(?:cancel|move|moving|moved|reschedul|push|bump|shift|postpon|delay)|` +
    // "hypothetically, could the tv thing go back a week": said of a case, not asked for.
    String.raw`\b(?:hypothetically|in theory|theoretically)\b|` +
    // "say i wanted to push the drywall job … havent decided": a case set up, to ask about it.
    String.raw`\b(?:say|suppose|supposing) (?:i|we) (?:wanted|want|needed|need|had|decided) to\b|` +
    String.raw`\b(?:haven'?t|havent|have not|not yet) decided\b|` +
    // "if hes sick on the morning of a visit and we have to call it off": a case that may come.
    String.raw`\b(?:if|what if|in case)\b[^.!?]*\b(?:have|had|need|needed) to (?:cancel|call (?:it|that|this) off|` +
    String.raw`move|reschedul|postpon)|` +
    // "how close to the day can i still switch it", "whats the deal with moving a booking last minute": the rule.
    String.raw`\bhow (?:close|late|near|short|soon|last[- ]minute)\b[^.!?]*\b(?:can|could) (?:i|we)\b[^.!?]*` +
    String.raw`\b(?:cancel|move|switch|change|reschedul|push|shift|postpon)|` +
    String.raw`\b(?:what'?s|whats|what is|what are) the (?:deal|policy|policies|rules?|story) ` +
    String.raw`(?:with|on|for|about|re) ` +
    String.raw`(?:moving|cancell?ing|reschedul\w*|changing|switching)\b|` +
    // "what would it cost to cancel my window cleaning?": the price of a change, asked before deciding on it.
    String.raw`\b(?:what|how much)(?: w(?:ou)?ld| wd| will| does| do)? (?:it|that|i|we) (?:cost|be|owe|pay)` +
    '(?: (?:me|us))?(?: if (?:i|we))? to (?:cancel|move|reschedul)',
);

/** Whether the message asks about a change in theory ("if i pushed the tv thing back a week, would it cost…"). */
export const changeInTheory = (text: string): boolean =>
  // "I would be grateful if you could cancel …": politeness around a request, not a case that may not happen.
  HYPOTHETICAL_CHANGE.test(normalize(text).replace(/\bif (?:you|u) (?:could|would|can)\b/g, ' '));

export interface ChangeCues {
  /** Words that move a booking the customer has ("move my deep clean", "reschedule"). */
  move: boolean;
  /** Words that cancel a booking the customer has ("cancel my window cleaning"). */
  cancel: boolean;
  /** "cancel it", "just cancel": a cancellation of the booking already being talked about. */
  cancelPronoun: boolean;
}

const POLITE_ASK = /\b(?:is there (?:any )?(?:way|chance)|is it possible|would it be possible|any chance)\b/;

const OTHERS_ASKED = new RegExp(
  String.raw`\b(?:ask|asking|tell|telling|get|getting|beg|begging)\s+(?:him|her|them|` +
    String.raw`(?:my|our|the)\s+(?:landlord|landlady|neighbou?r|husband|wife|partner|boss|plumbers?|builders?|` +
    String.raw`movers?|contractors?|electrician|decorators?))\s+to\b[^.!?]*`,
  'g',
);

/**
 * "Saturday no longer suits us", "backordered until after christmas, so saturday is no good": a booked day that
 * does not work, with neither a move, a cancellation nor another time asked for.
 */
export function onlyDayDoesntSuit(text: string): boolean {
  const t = normalize(requestPart(text));
  return (
    DAY_DOESNT_SUIT.test(t) &&
    !MOVE_EXISTING.some((re) => re.test(t)) &&
    !CANCEL_EXISTING.some((re) => re.test(t)) &&
    !TARGET_WORDS.test(t) &&
    !/\b(?:to|for)\s+(?:the\s+)?(?:\d|mon|tue|wed|thu|fri|sat|sun|tomorrow|next)/.test(t)
  );
}

export function changeCues(text: string): ChangeCues {
  // "I'm going to ask him to move the plumbers": what someone else is asked to do moves no booking of ours.
  const t = normalize(requestPart(text)).replace(OTHERS_ASKED, ' ');
  const whole = normalize(text);
  if (!t.trim() || changeInTheory(text)) return { move: false, cancel: false, cancelPronoun: false };
  // "the window cleaning on the 14th … please cancel it": the booking is named, then the change said of it.
  const named = NAMED_BOOKING.test(t);
  const cancelPronoun = CANCEL_PRONOUN.test(t);
  return {
    move:
      MOVE_EXISTING.some((re) => re.test(t)) ||
      (named && (INSTEAD_WHEN.test(t) || IN_PLACE_OF.test(t) || DIFFERENT_TIME.test(t))) ||
      // "for the wall repair on wednesday 16, is it possible to change for thursday 17?": asked politely, as a
      // question, of the booking named.
      (NAMED_BOOKING.test(whole) && CHANGE_TO_DAY.test(whole)) ||
      (BARE_NAMED_AT_START.test(t) && INSTEAD_WHEN.test(t)) ||
      ARROWED_BOOKING.test(t) ||
      // "is there any way to swap the thermostat install to the morning?": a move asked for as whether it can be.
      (POLITE_ASK.test(whole) && MOVE_EXISTING.some((re) => re.test(whole))) ||
      COME_INSTEAD.test(t) ||
      DAY_DOESNT_SUIT.test(t),
    cancel: CANCEL_EXISTING.some((re) => re.test(t)) || (named && cancelPronoun) || NOT_NEEDED.test(t),
    cancelPronoun,
  };
}

const hasWhen = (w: WhenMention) => Boolean(w.date || w.time || w.ambiguous || w.vague || w.hint);
const TARGET_WORDS = new RegExp(
  String.raw`\b(instead|make it|make that|how about|what about|can we do|could we do|let'?s do|rather|` +
    String.raw`(?:could|can|would) it be)\b`,
  'i',
);

/**
 * The words naming the booking and the words giving the new time: the split is at the first "to"
 * or "for" after the verb that is followed by a day or time ("move my friday visit | to monday").
 * Without one, a "make it 3pm instead" is all new time, anything else all booking.
 */
export function splitChange(
  text: string,
  ctx: Pick<PlanContext, 'now' | 'timeZone'>,
): { which: string; target: string } {
  // "fan install fri 18th -> thurs 17th, 2pm": the arrow is the split.
  const arrow = ARROW.exec(text);
  if (arrow) return { which: text.slice(0, arrow.index), target: text.slice(arrow.index + arrow[0].length) };
  // "the fan install on saturday - can it be 11 instead of 9?": the new time before "instead of", the old after.
  const inPlace = /\b(?:instead of|rather than)\b/i.exec(text);
  if (inPlace) {
    const start = clauseStart(text, inPlace.index);
    const target = text.slice(start, inPlace.index);
    if (hasWhen(extractWhen(target, ctx.now, ctx.timeZone)))
      return { which: `${text.slice(0, start)} ${text.slice(inPlace.index)}`.trim(), target };
    // "Instead of 2pm can they come at 9am that same day": the time it has first, the new one after it.
    const after = text.slice(inPlace.index + inPlace[0].length);
    const old = new RegExp(
      String.raw`^\s*(?:the\s+)?(?:${CLOCK}|\d{1,2}(?::\d{2})?|${WEEKDAY}|noon|morning|afternoon)`,
      'i',
    ).exec(after);
    const rest = old ? after.slice(old[0].length) : '';
    if (!target.trim() && old && hasWhen(extractWhen(rest, ctx.now, ctx.timeZone)))
      return { which: text.slice(0, inPlace.index + inPlace[0].length + old[0].length), target: rest };
  }
  const verb = /\b(?:move|moving|reschedul\w*|push|bump|postpone|shift|change|switch|make)\b/i.exec(text);
  const from = verb ? verb.index + verb[0].length : 0;
  const marker = /\b(?:to|for|till|until|into)\b/gi;
  marker.lastIndex = from;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const rest = text.slice(m.index + m[0].length);
    if (hasWhen(extractWhen(rest, ctx.now, ctx.timeZone))) return { which: text.slice(0, m.index), target: rest };
  }
  const target = TARGET_WORDS.exec(text);
  if (!target) return { which: text, target: '' };
  // "that wall patching thing on thursday - can the guy do friday instead?": the clauses before the
  // one asking for the new time name the booking.
  const start = clauseStart(text, target.index);
  // "can the faucet thing on wed be thursday at 4pm instead": the booking named in the same clause, with its day,
  // is the old time; what follows it is the new one.
  const clause = text.slice(start, target.index);
  const named = new RegExp(NAMED_BOOKING.source, 'i').exec(clause);
  // "my window cleaning on the 14th": the day said after "my …" is the booking's too.
  const day = named
    ? new RegExp(String.raw`^\s+${ON_DAY}`, 'i').exec(clause.slice(named.index + named[0].length))
    : null;
  const namedEnd = named ? named.index + named[0].length + (day?.[0].length ?? 0) : 0;
  if (named && hasWhen(extractWhen(clause.slice(namedEnd), ctx.now, ctx.timeZone))) {
    const end = start + namedEnd;
    return { which: text.slice(0, end), target: text.slice(end) };
  }
  return { which: text.slice(0, start), target: text.slice(start) };
}

/** Where the clause holding `index` starts: after the last ".", "!", "?", ";", "," or dash before it. */
function clauseStart(text: string, index: number): number {
  let start = 0;
  for (const m of text.slice(0, index).matchAll(/[.!?;,]+\s*|\s+[-\u2013\u2014]+\s+/g)) start = m.index + m[0].length;
  return start;
}

/** The upcoming bookings of a lookup_customer result; undefined when it found no customer. */
export function upcomingOf(result: unknown): UpcomingBooking[] | undefined {
  if (!isRecord(result) || !isRecord(result.customer) || !Array.isArray(result.upcoming_bookings)) return undefined;
  return result.upcoming_bookings.filter(isRecord).flatMap((b) =>
    typeof b.id === 'string' &&
    typeof b.starts_at === 'string' &&
    typeof b.service_id === 'string' &&
    (b.status === undefined || b.status === 'confirmed')
      ? [
          {
            id: b.id,
            service_id: b.service_id,
            service_name: typeof b.service_name === 'string' ? b.service_name : b.service_id,
            starts_at: b.starts_at,
            ...(typeof b.price_cents === 'number' ? { price_cents: b.price_cents } : {}),
          },
        ]
      : [],
  );
}

export interface BookingPick {
  /** The booking meant, when exactly one fits. */
  chosen?: UpcomingBooking;
  /** The bookings that still fit (several: ask which). */
  candidates: UpcomingBooking[];
  /** The words said something (a service, a day) that fits none of the bookings. */
  unmatched?: string;
  /** The words named the booking (service, day, time or position), rather than leaving it to context. */
  named: boolean;
}

/**
 * Which of the bookings the words point at: by position in a list we showed, by service, by day
 * and time. Without any of those, the booking already being talked about (`preferred`) when the
 * customer said "it", else the only booking.
 */
export function pickBooking(
  bookings: readonly UpcomingBooking[],
  which: string,
  ctx: Pick<PlanContext, 'now' | 'timeZone' | 'services'>,
  opts: { preferred?: readonly string[]; listed?: boolean; pronoun?: boolean } = {},
): BookingPick {
  const position = opts.listed ? ordinalOf(which) : undefined;
  if (position !== undefined && bookings[position])
    return { chosen: bookings[position], candidates: [bookings[position]], named: true };
  // "the later one", "the earliest": of the bookings we listed, by when they are.
  const byTime = opts.listed
    ? /\b(?:the )?(later|latest|last|earlier|earliest|sooner|soonest)(?: one)?\b/.exec(normalize(which))
    : null;
  if (byTime && bookings.length > 1) {
    const sorted = [...bookings].sort((x, y) => Date.parse(x.starts_at) - Date.parse(y.starts_at));
    const chosen = /^(?:later|latest|last)$/.test(byTime[1]!) ? sorted.at(-1)! : sorted[0]!;
    return { chosen, candidates: [chosen], named: true };
  }
  let fit = [...bookings];
  let named = false;
  let unmatched: string | undefined;
  const services = matchServices(which, ctx.services);
  const serviceIds = new Set((services.matches.length ? services.matches : services.candidates).map((s) => s.id));
  if (serviceIds.size) {
    named = true;
    const byService = fit.filter((b) => serviceIds.has(b.service_id));
    if (byService.length) fit = byService;
    else unmatched = (services.matches[0] ?? services.candidates[0])!.name;
  }
  const w = extractWhen(which, ctx.now, ctx.timeZone);
  if (w.date && !unmatched) {
    named = true;
    const byDay = fit.filter((b) => {
      const l = localOf(b.starts_at, ctx.timeZone);
      if (w.weekdayOnly)
        return l.weekday === new Date(Date.UTC(w.date!.year, w.date!.month - 1, w.date!.day)).getUTCDay();
      return l.year === w.date!.year && l.month === w.date!.month && l.day === w.date!.day;
    });
    if (byDay.length) fit = byDay;
    else unmatched = 'that day';
  }
  if (w.time && !unmatched) {
    const byTime = fit.filter((b) => {
      const l = localOf(b.starts_at, ctx.timeZone);
      return l.hour === w.time!.hour && l.minute === w.time!.minute;
    });
    if (byTime.length) {
      named = true;
      fit = byTime;
    }
  }
  if (unmatched) return { candidates: [], unmatched, named };
  if (fit.length === 1) return { chosen: fit[0]!, candidates: fit, named };
  if (!named && opts.pronoun) {
    const preferred = (opts.preferred ?? []).map((id) => fit.find((b) => b.id === id)).find(Boolean);
    if (preferred) return { chosen: preferred, candidates: [preferred], named };
  }
  return { candidates: fit, named };
}

/** The customer's reason for a cancellation, in their words, when they give one ("…because we'll be away"). */
export function cancelReason(text: string): string | undefined {
  const m = /\b(?:because|since|due to|cause|'cause)\b\s+(.{3,})$/i.exec(text.trim());
  return m ? clip(m[1]!.replace(/[.!]+$/, '').trim(), 500) : undefined;
}

const FEE_WORDS = new RegExp(
  String.raw`\b(?:fees?|costs?|charges?|charged|penalt(?:y|ies)|owe|pay|paying|free|notice|surcharge|cheaper|` +
    // "what would it set me back", "whats the damage": the cost in everyday words.
    String.raw`cheapest|lose|set (?:me|us) back|(?:what'?s|what is|whats) the damage)\b`,
);
const CANCEL_WORDS = /\bcancel\w*|\bcall(?:ing)? (?:it|that|this|the \w+) off\b|\bbail(?:ing)? on\b/;
// "A move-out clean" names a service, not a change.
const MOVE_WORDS = new RegExp(
  String.raw`\b(?:move|moving|reschedul\w*|postpon\w*|push\w* (?:back|it|my|the|that|our)|` +
    // "if I moved my wednesday handyman visit to the afternoon" (not "if i moved to 14 Ferry Road")
    String.raw`moved (?:my|our|the|that|this) (?:[a-z]+ ){0,3}?(?:booking|appointment|visit|clean\w*|repair|` +
    String.raw`install\w*|mount\w*)|` +
    // "if I pushed thursday's tv mounting back to the week after"
    String.raw`push\w* (?:[\w']+ ){1,3}?(?:back|forward)|` +
    String.raw`change (?:the )?(?:date|day|time))\b` +
    String.raw`(?![- ]?(?:out|in)\b)`,
);
/** Moving home ("moving out to the suburbs", "if we move house"): the customer moves, not a booking. */
const HOME_MOVE = new RegExp(
  String.raw`\b(?:move|moving|moved) (?:out|in|house|home|away|abroad|across|into|over to|` +
    String.raw`to (?!(?:a |an |another |the |that |this )?(?:day|date|time|slot|week|morning|afternoon|evening|next|` +
    String.raw`later|earlier|mon|tue|wed|thu|fri|sat|sun|\d)))|\brelocat\w*`,
);
/** The booking named as what moves ("move my cleaning", "move it to friday"). */
const BOOKING_MOVED = new RegExp(
  String.raw`\b(?:move|moving|reschedul\w*) (?:my |our |the |a |that |this )?(?:it\b|booking|appointment|visit|` +
    String.raw`clean\w*|slot|reservation|repair|install\w*|service)`,
);
const ASKS = new RegExp(
  String.raw`\?|\b(?:what|how much|how long|how far|how many|will i|would i|do i|is there|are there|does it|` +
    String.raw`(?:would|will) (?:that|it))\b`,
);

/**
 * A question about what moving or cancelling costs ("is there a fee if I move my booking", "what do
 * I owe if I cancel"): which change it asks about, for an answer from the change policy.
 */
export function feeQuestionOf(text: string): ChangeKind | 'any' | undefined {
  const t = normalize(text);
  if (!FEE_WORDS.test(t) || !(ASKS.test(t) || isInformationQuestion(text))) return undefined;
  const cancel = CANCEL_WORDS.test(t);
  // "if we ended up moving out to the suburbs would it cost more? not moving yet": a house, not a visit.
  const move = MOVE_WORDS.test(t) && (!HOME_MOVE.test(t) || BOOKING_MOVED.test(t));
  if (cancel && move) return 'any';
  return cancel ? 'cancel' : move ? 'reschedule' : undefined;
}
