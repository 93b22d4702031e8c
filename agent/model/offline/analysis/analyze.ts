import type { BaseMessage } from '@langchain/core/messages';
import type { PlanContext } from '../../../plan-context.js';
import { aiBeforeLastCustomer, findBaseBooking, isCustomerMessage, type BaseBooking } from '../conversation.js';
import {
  BOOKING_CHANGE_TOOLS,
  changeCues,
  changeInTheory,
  feeQuestionOf,
  type ChangeCues,
  type ChangeKind,
} from './booking-change.js';
import { detectCues, isInformationQuestion, requestPart, type Cues } from './cues.js';
import {
  type AddressChange,
  damageIsTheJob,
  dirtIsTheJob,
  extractAddress,
  faultIsTheJob,
  leakIsTheJob,
  reportsProblem,
  withoutCrewInstruction,
  withoutNoteText,
  wantsTicket,
} from './entities.js';
import { addressInDiscussion } from './address-revision.js';
import { asks } from './asked-part.js';
import { retriesDeclined } from './retry.js';
import { bookingBesideProblem } from './segments.js';
import { matchServices, type ServiceMatch } from './services.js';
import { chatSentences, contentWords, messageText, normalize } from './text.js';
import { bareHourAnswer, extractWhen, localOf, type WhenMention } from './when.js';

/** What one customer message says, read once: the intent planners decide from this. */
export interface Analysis {
  text: string;
  cues: Cues;
  when: WhenMention;
  services: ServiceMatch;
  problem: boolean;
  explicitTicket: boolean;
  infoQuestion: boolean;
  base: BaseBooking | undefined;
  bookingWanted: boolean;
  rescheduleWanted: boolean;
  /** Our previous message asked for booking details ("I'd be happy to book … which day?", or offered to book one). */
  answersBookingQuestion: boolean;
  /** Our previous message asked for a value of the record ("What phone number should we have…?"). */
  answersValueQuestion?: 'email' | 'phone' | 'address' | 'contact' | 'name' | 'preferred_time';
  /** Which part of their name the customer asked to change before our question for it, when they said. */
  namePartAsked?: 'surname' | 'first';
  /** The email address we just said was incomplete ("x@gmail"), which this message may complete. */
  incompleteEmail?: string;
  /** The incomplete address the customer gave before our question for the whole of it. */
  addressBefore?: string;
  /** The two numbers we just asked the customer to choose between for the one phone on file. */
  phoneChoice?: [string, string];
  /**
   * Moves or cancels a booking the customer already has (looked up first), as opposed to changing
   * or taking back a booking request of this conversation.
   */
  bookingChange?: ChangeKind;
  /** Asks what moving or cancelling costs (answered from the change policy when nothing is changed). */
  feeQuestion?: ChangeKind | 'any';
  /** The address an update of this conversation asks for, which a next message may complete ("its unit 5"). */
  addressInDiscussion?: AddressChange;
}

/** "is it possible to book…", "would it be possible for u to do…": a request put as a question. */
const POSSIBLE_TO_BOOK =
  /\b(?:is|would) it (?:be )?possible (?:for (?:you|u)(?: guys)? )?to (?:book|do|get|have|schedule|squeeze|fit)\b/i;

/** Something on the customer's side that could stop a visit: someone ill at home, the weather. */
const HOUSEHOLD_OBSTACLE =
  /\b(?:flu|sick|ill|unwell|covid(?:-19)?|fever|stomach bug|contagious|virus|snow\w*|storm\w*|blizzard)\b/;
/** "can somebody still come out?", "will the tech still come?": whether the visit goes ahead despite it. */
const STILL_COMES = new RegExp(
  String.raw`\b(?:can|could|will|would|do|does) (?:someone|somebody|anyone|you|u|they|the \w+|your \w+) ` +
    String.raw`still (?:come|go ahead|send|make it|turn up|show up|be able to come)`,
);
/**
 * "my husband has the flu but the faucet is leaking, can somebody still come out?": the leak is the reason
 * for the visit and the question is the help centre's (does it go ahead with someone ill), not a complaint.
 */
const asksIfVisitGoesAhead = (t: string) => HOUSEHOLD_OBSTACLE.test(t) && STILL_COMES.test(t);

const HYPOTHETICAL = new RegExp(
  String.raw`\b(` +
    [
      // "what happens now" after a report asks what follows from it, not from a case supposed.
      "what if|what happens(?! now| next)|in case|if (?:a|the|your|ur|you|someone|something|my|i|it'?s|it is|there'?s)",
      // "purely hypothetical …: say your cleaner leaves the mirrors streaky": a case set up, not one reported.
      String.raw`hypothetical(?:ly)?|in theory|suppose|supposing|` +
        String.raw`(?:^|[:;,.]\s*|let'?s )say (?:your|the|i|we|you|it'?s?|a|someone)`,
      // "does the guarantee cover it if it comes loose later?": a failure supposed, not reported.
      String.raw`(?:if|should|once) (?:it|they|that|this) (?:ever |later |then )?` +
        String.raw`(?:comes?|starts?|stops?|breaks?|fails?|leaks?|falls?|goes|gets|drips?)`,
      'are you (?:insured|covered)|do you cover',
      'is there (?:(?:a|an|any) )?(?:extra |additional )?(?:fee|charge|surcharge|cost)',
      'policy|how do(?:es)? (?:i|you|it) (?:handle|work)|would you',
    ].join('|') +
    String.raw`)\b`,
);

/** A sentence about another business's failings ("My internet company did not come three times this month"). */
const OTHER_BUSINESS = new RegExp(
  String.raw`^\s*(?:(?:so|and|but|ugh|honestly|also)\s+)?(?:my|our|the)\s+(?:[a-z-]+\s+){0,2}?` +
    String.raw`(?:company|provider|supplier|isp|utility|landlord|letting agent|movers|removal firm|courier|` +
    String.raw`cable guy)\b`,
  'i',
);
const ABOUT_US = /\b(?:you|your|ur|yours|y'?all)\b/i;

/** The message without its sentences about another business's failings: those are not ours to ticket. */
function withoutOtherBusiness(text: string): string {
  return chatSentences(text)
    .filter((s) => !(OTHER_BUSINESS.test(s) && !ABOUT_US.test(s)))
    .join(' ');
}

/** A long passage in quotes: pasted from a notice, an email or someone else's message. */
const PASTED = /["“]([^"“”]{40,})["”]/g;
/** What the customer asks of us in their own words, outside what they pasted. */
const OWN_REQUEST = /\b(?:please|pls|plz|can you|could you|would you|can u|could u|i need|i want|i'?d like)\b/i;

/**
 * "Got this taped to my door, is it anything to do with you? "NOTICE …: change the contact email to … and cancel
 * any visits …"": what the pasted text tells someone to do is not asked of us, unless the customer asks it too.
 */
function withoutPastedNotice(text: string): string {
  if (!text.match(PASTED)) return text;
  const own = text.replace(PASTED, ' ');
  return OWN_REQUEST.test(own) ? text : own.replace(/\s+/g, ' ').trim() || text;
}

/** The message without its asides and sentences about another company's visit. */
function withoutAnotherCompany(text: string): string {
  if (!ANOTHER_COMPANY.test(text)) return text;
  const kept = chatSentences(text.replace(/\([^()]*\)/g, (aside) => (ANOTHER_COMPANY.test(aside) ? ' ' : aside)))
    .filter((s) => !ANOTHER_COMPANY.test(s))
    .join(' ')
    .trim();
  return kept || text;
}

/** "(wife wants to cancel the gutter guys but that's another company, not you lol)": said of someone else's firm. */
const ANOTHER_COMPANY = new RegExp(
  String.raw`\b(?:that'?s|thats|that is|they'?re|theyre|they are|it'?s|its) (?:another|a different|a separate) ` +
    String.raw`(?:company|firm|business|outfit)\b`,
  'i',
);

/** "i was all set to complain about the mud … turns out it was the parcel van, not your guys": nothing to report. */
const NOT_OURS_AFTER_ALL = new RegExp(
  String.raw`\bturns? out (?:it was|it wasn'?t|that was)\b[^.!?]*\b(?:not (?:you|your|ur)|wasn'?t (?:you|your|ur))|` +
    String.raw`\b(?:was going|was about|was all set|were going) to (?:complain|write a complaint|raise|report)\b` +
    String.raw`[^.!?]*\b(?:turns? out|but (?:it was|then))\b|` +
    // "… start dripping again last night, but it was me, i did not close it fully": the fault was the customer's.
    String.raw`\b(?:but|turns? out|turned out|actually|nvm|never mind)[,\s]+` +
    String.raw`(?:it was (?:just )?(?:me|my (?:fault|bad|mistake))|(?:my (?:fault|bad|mistake))|false alarm|` +
    String.raw`i (?:didn'?t|did not|hadn'?t|had not) (?:close|turn|shut|switch|plug))\b`,
);

/** "if i got a ceiling fan put in thu 17th at 2 would you be done by 5?": a visit supposed, to ask about it. */
const SUPPOSED_VISIT = new RegExp(
  String.raw`\bif (?:i|we) (?:got|get|book|booked|had|have|went for|ordered)\b[^.!?]*\b(?:would|will|could) ` +
    String.raw`(?:you|it|that|they|the \w+)\b[^.!?]*\?`,
);

/**
 * "the oven wasnt done on my regular clean. or is that not part of it?": whether the work was owed at all is asked,
 * which the help centre answers before anything is reported.
 */
const ASKS_IF_INCLUDED = new RegExp(
  String.raw`\b(?:or )?(?:is|was|isn'?t|wasn'?t) (?:that|it|this|the \w+) (?:not |even )?` +
    String.raw`(?:part of (?:it|the (?:\w+ )?(?:clean(?:ing)?|service|package|job|visit))|included|covered)\b` +
    String.raw`[^.!?]*\?\s*$`,
);

export function analyze(messages: BaseMessage[], ctx: PlanContext, message: string): Analysis {
  // What is said of another company's visit asks nothing of us, whatever its verbs.
  const text = withoutPastedNotice(withoutAnotherCompany(message));
  const cues = detectCues(text);
  const base = findBaseBooking(messages, ctx);
  const anchor = base ? localOf(base.start_time, ctx.timeZone) : undefined;
  const prev = aiBeforeLastCustomer(messages);
  const answersBookingQuestion = prev >= 0 && BOOKING_QUESTION.test(messageText(messages[prev]).trim());
  const said = extractWhen(text, ctx.now, ctx.timeZone, anchor);
  // "ugh ok 4 then" to our "would 5:00 PM work, or another time?": a bare number is the hour.
  const hour = answersBookingQuestion && !said.time && !said.ambiguous ? bareHourAnswer(text) : undefined;
  const when = hour ? { ...said, ...hour } : said;
  const services = askedServices(text, ctx.services);
  // "faucet repair thurs 17th at 2pm??" names everything a booking needs: a request, whatever its punctuation.
  // So does a part of the day ("sometime after lunch friday?? need a handyman"): the start is asked, not the intent.
  const namesWholeBooking =
    (services.matches.length === 1 || (services.joined === true && services.matches.length === 2)) &&
    Boolean(when.date && (when.time || when.ambiguous || when.part));
  // "is it possible to do a move out clean on mon 14th at 10?": a whole visit asked for, politely.
  const asksInformation = isInformationQuestion(text) && !(namesWholeBooking && POSSIBLE_TO_BOOK.test(text));
  const infoQuestion = asksInformation || (cues.question && !cues.book.strong && !cues.book.weak && !namesWholeBooking);
  // Only information questions ("how much is it?"), nothing asked of us: never a booking.
  const request = requestPart(text);
  const requestBook = detectCues(request).book;
  // "the drywall patch then. thursday?" answering our "Would you like me to book one?": unsure, not a question.
  const tentativeAnswer =
    answersBookingQuestion && !asksInformation && services.matches.length === 1 && Boolean(when.date || when.time);
  const infoOnly =
    !(namesWholeBooking && !asksInformation) &&
    !tentativeAnswer &&
    (!request.trim() || (cues.question && !cues.book.strong && !requestBook.weak));
  const weak = Boolean(request.trim()) && requestBook.weak;
  // "if i book a clean there do i pay the travel fee?": the booking verb is the question's case, asked about.
  if (cues.book.strong && asksInformation && !requestBook.strong) cues.book.strong = false;
  const t = normalize(text);
  const explicitTicket = wantsTicket(text);
  // "Can someone patch a hole in my wall Tuesday at 9?" names the job, and "I spilled wine on my
  // carpet, do you do stain removal?" asks a question: neither reports anything we did.
  // So does "a wobbly shelf and a dripping tap - thursday at 1pm": a fault nobody ties to our work, which a
  // repair service fixes (an installation service is not a repair of what is there).
  const asked = cues.book.strong || cues.book.weak;
  const repairJob =
    (damageIsTheJob(text) && ((services.matches.length > 0 && asked) || cues.question)) ||
    // "kitchen faucet leaks, someone after lunch on tue 15th?": the visit asked for by its day and time.
    ((faultIsTheJob(text) || leakIsTheJob(text)) &&
      (asked || Boolean(when.date && (when.time || when.ambiguous || when.part))) &&
      services.matches.some((s) => s.category === 'repair')) ||
    // "windows (inside) are filthy after the renovation dust. wednesday the 16th at 10 pls": the dirt a cleaning
    // service is booked for, the visit named whole or asked for.
    (dirtIsTheJob(text) && (asked || namesWholeBooking) && services.matches.some((s) => s.category === 'cleaning'));
  const goesAheadQuestion = cues.question && asksIfVisitGoesAhead(t);
  const problem =
    (reportsProblem(
      withoutTicketQuestions(withoutNoteText(withoutCrewInstruction(withoutOtherBusiness(text))), cues),
    ) &&
      !(cues.question && HYPOTHETICAL.test(t)) &&
      !goesAheadQuestion &&
      !ASKS_IF_INCLUDED.test(t) &&
      !NOT_OURS_AFTER_ALL.test(t) &&
      !repairJob) ||
    explicitTicket ||
    // What happened, told after we asked for it (intents/ticket) when they asked for a ticket with nothing in it.
    (prev >= 0 && WHAT_HAPPENED_ASKED.test(messageText(messages[prev])) && contentWords(t).size >= 4);
  const hasWhen = Boolean(when.date || when.time || when.ambiguous || when.hint || when.vague);
  const changeCue =
    cues.reschedule ||
    cues.sameTimeNextWeek ||
    cues.relativeShiftMinutes !== undefined ||
    cues.relativeShiftDays !== undefined;
  const change = changeCues(text);
  const feeQuestion = feeQuestionOf(text);
  // "what does it cost to cancel the day before?" asks about the policy; it takes nothing back.
  if (feeQuestion && !change.cancel && !change.move) cues.withdraw = false;
  // "how much do i lose if i cancel tomorrow's cleaning": a cancellation asked about, not asked for.
  if (changeInTheory(t)) cues.cancelBooking = false;
  // "any chance my cleaning could start at 10 instead of 8?" names their booking to move it, not to see it.
  if (change.move && cues.lookup === 'bookings') delete cues.lookup;
  const supersedeWanted =
    Boolean(base) &&
    !problem &&
    !cues.lookup &&
    // "never mind the windows, email me instead of texting": the "instead" is not a new time.
    ((changeCue &&
      !(cues.withdraw && !hasWhen) &&
      (hasWhen ||
        services.matches.length > 0 ||
        cues.sameTimeNextWeek ||
        cues.relativeShiftMinutes !== undefined ||
        cues.relativeShiftDays !== undefined ||
        /\b(move|reschedul)/.test(t))) ||
      (hasWhen && !services.matches.length && !cues.book.strong && !infoOnly && !cues.withdraw) ||
      // "ugh ok, 1pm same day then?" after a refusal: another try at the same visit, though asked as a question.
      retriesDeclined(base, text, when));
  const bookingChange =
    problem || cues.lookup || changeInTheory(t)
      ? undefined
      : bookingChangeOf(
          ctx,
          base,
          { change, changeCue, hasWhen, supersedeWanted, newBooking: cues.book.strong, shift: relativeShift(cues) },
          t,
        );
  // "move my deep clean to wednesday" while that deep clean is still a request: the request changes.
  const movesOpenRequest =
    change.move && base !== undefined && (base.status === 'pending' || base.status === 'proposed') && !problem;
  const rescheduleWanted = !bookingChange && (supersedeWanted || movesOpenRequest);
  // "will I be charged twice if I book two services on the same day?": the booking verb sets up the question.
  const supposedBooking = (cues.question && infoOnly && HYPOTHETICAL.test(t)) || SUPPOSED_VISIT.test(t);
  // "rang ur office and booked a tv mount for tuesday, just telling u": done already, nothing asked.
  const alreadyArranged = !asked && ALREADY_ARRANGED.test(t);
  const bookingWanted =
    !supposedBooking &&
    // A problem cleared up in the same message ("but it was me") asks for no visit either, unless one is asked.
    !(NOT_OURS_AFTER_ALL.test(t) && !cues.book.strong) &&
    !cues.justAsking &&
    !goesAheadQuestion &&
    !alreadyArranged &&
    !rescheduleWanted &&
    !bookingChange &&
    !(cues.withdraw && !hasWhen) &&
    !cues.lookup &&
    !cues.cancelBooking &&
    (problem
      ? cues.book.strong || bookingBesideProblem(text, ctx) !== undefined
      : cues.book.strong ||
        (!infoOnly && weak && (services.matches.length > 0 || hasWhen)) ||
        (!infoOnly && services.matches.length > 0 && Boolean(when.date || when.time || when.ambiguous)) ||
        // "tuesday at 11am" answering our "which day and time?"
        (answersBookingQuestion && !infoOnly && (hasWhen || services.matches.length > 0)) ||
        // "saturday the 19th at 9 for a clean pls. not sure which kind tho?": a kind of service, a day, a
        // time and a please outside the question: a visit asked for, which service still to ask.
        (!base &&
          !services.matches.length &&
          services.candidates.length > 1 &&
          Boolean(when.date && (when.time || when.ambiguous)) &&
          /\b(?:pls|please|plz)\b/.test(request)) ||
        // "saturday at 11 please" on its own: a visit asked for, its service still to ask.
        (!base && Boolean(when.date && (when.time || when.ambiguous)) && onlySaysWhen(text, when)));
  const valueQuestion = prev >= 0 ? VALUE_QUESTION.exec(messageText(messages[prev])) : null;
  const valueAsked = valueQuestion?.slice(1).find(Boolean);
  const answersValueQuestion = valueAsked
    ? valueAsked.startsWith('phone')
      ? 'phone'
      : valueAsked === 'address'
        ? 'address'
        : valueAsked === 'contact' || valueAsked === 'name'
          ? valueAsked
          : valueAsked === 'preferred time'
            ? 'preferred_time'
            : 'email'
    : undefined;
  // "correct the spelling of my surname" before our "What name should we have…?": the answer may be that part alone.
  const askedBefore =
    answersValueQuestion === 'name' || answersValueQuestion === 'address'
      ? messages.slice(0, prev).filter(isCustomerMessage).at(-1)
      : undefined;
  const namePart =
    askedBefore && answersValueQuestion === 'name'
      ? NAME_PART.exec(normalize(messageText(askedBefore)))?.[1]
      : undefined;
  // "27 elm road, unit 5, springfield" before our "Could you send me the full new address…?": what it lacked.
  const before =
    askedBefore && answersValueQuestion === 'address' ? extractAddress(messageText(askedBefore)) : undefined;
  const addressBefore = before && !before.ok ? before.partial : undefined;
  const incompleteEmail = prev >= 0 ? INCOMPLETE_EMAIL.exec(messageText(messages[prev]))?.[1] : undefined;
  const choice = prev >= 0 ? PHONE_CHOICE.exec(messageText(messages[prev])) : null;
  const discussedAddress = addressInDiscussion(messages, ctx);
  return {
    text,
    cues,
    ...(answersValueQuestion ? { answersValueQuestion } : {}),
    ...(namePart ? { namePartAsked: /first|given/.test(namePart) ? ('first' as const) : ('surname' as const) } : {}),
    ...(incompleteEmail ? { incompleteEmail } : {}),
    ...(choice ? { phoneChoice: [choice[1]!, choice[2]!] as [string, string] } : {}),
    ...(addressBefore ? { addressBefore } : {}),
    when,
    services,
    problem,
    explicitTicket,
    infoQuestion,
    base,
    bookingWanted,
    rescheduleWanted,
    answersBookingQuestion,
    ...(bookingChange ? { bookingChange } : {}),
    ...(feeQuestion ? { feeQuestion } : {}),
    ...(discussedAddress ? { addressInDiscussion: discussedAddress } : {}),
  };
}

/**
 * Our message that asks for a booking's details: "I'd be happy to book … which day?", or an answer that
 * offers to book the service it was about ("…Would you like me to book one? Just tell me the day and time.").
 */
const BOOKING_QUESTION = new RegExp(
  String.raw`^I'd be happy to book\b|` +
    String.raw`\bis outside our service area, so we can't book a visit there\. Is there an address inside\b|` +
    // A job we don't do, then ours offered (intents/customer-message).
    String.raw`\bWhat we can book is [^?]+: which would you like, and on which day and at what time\?|` +
    String.raw`\bWould you like me to book (?:an? [^?]{2,80}|one)(?: for you)?\? Just tell me the day and time\.`,
);

/**
 * "do i have any open tickets from that complaint i made?" asks after a complaint made before, and reports
 * nothing new: the sentences that ask about their tickets are not read for a problem.
 */
function withoutTicketQuestions(text: string, cues: Cues): string {
  if (cues.lookup !== 'tickets') return text;
  return chatSentences(text)
    .filter((s) => detectCues(s).lookup !== 'tickets')
    .join(' ');
}

/**
 * The services a message asks for. "took down the old shelves and now there's 3 holes. can someone fill + prime
 * them mon 14th at 1?": the sentence that tells names the shelves, the one that asks the holes' repair. When the
 * asking sentences name some of the services the whole message does, those are the ones meant.
 */
function askedServices(text: string, services: PlanContext['services']): ServiceMatch {
  const all = matchServices(text, services);
  if (all.matches.length < 2) return all;
  const sentences = chatSentences(text.trim());
  const asking = sentences.filter((s) => {
    const c = detectCues(s);
    return c.book.strong || c.book.weak || asks(s);
  });
  if (!asking.length || asking.length === sentences.length) return all;
  const asked = matchServices(asking.join(' '), services).matches;
  return asked.length && asked.length < all.matches.length && asked.every((s) => all.matches.includes(s))
    ? { matches: asked, candidates: [] }
    : all;
}

/** Our question for a missing value (intents/contact-change), which the next message answers. */
const VALUE_QUESTION = new RegExp(
  String.raw`\bWhat (phone number|email address|name) should we have on your account\?|` +
    String.raw`\bCould you send me the (?:full )?new (address)\b|` +
    // "555-619-44 looks incomplete. Could you send me the full phone number…"
    String.raw`\bCould you send me the full (phone number)\b|` +
    // "How would you like us to contact you instead: by text messages or phone calls?"
    String.raw`\bHow would you like us to (contact) you\b|` +
    String.raw`\bWhich time of day should we keep as your (preferred time)\b`,
);

const NAME_PART = /\b(surname|last name|family name|second name|first name|given name)\b/;

/** Our question after a ticket asked for with nothing said about what happened (intents/ticket). */
const WHAT_HAPPENED_ASKED = /\bWhat happened\? Tell me what it's about\b/;

/** Our reply to an email address without its ending (intents/contact-change): the next message may complete it. */
/** Our "Which should it be: A or B?" about two numbers for the one phone on file. */
const PHONE_CHOICE = /We keep one phone number on your account\. Which should it be: (.+?) or (.+?)\?/;
const INCOMPLETE_EMAIL = /"([^"\s]+@[^"\s]*)" doesn't look like a complete email address/;

/** A booking the customer says they made themselves ("and booked…", "i've already scheduled…"). */
const ALREADY_ARRANGED = /\b(?:i|we|i'?ve|we'?ve|already|and)\s+(?:already\s+)?(?:booked|scheduled|arranged)\b/;

/** Words that ask nothing by themselves around a day and time ("please", "works for me", "then"). */
const FILLER = new RegExp(
  String.raw`\b(?:please|pls|plz|thanks|thank you|ok|okay|then|works|would work|is fine|is good|` +
    // "oh well. tomorrow at 3 then": giving in to what we said, not a word about the visit
    String.raw`oh well|oh|well|ah|hmm|ugh|alright|all right|fine|fair enough|no worries|` +
    String.raw`for me|for us|can we do|how about|at|on)\b`,
  'g',
);

/** The message says a day and time and nothing else ("saturday at 11 please"). */
function onlySaysWhen(text: string, when: WhenMention): boolean {
  let rest = normalize(text);
  for (const span of when.spans) rest = rest.split(normalize(span)).join(' ');
  return !rest.replace(FILLER, ' ').replace(/[^a-z0-9]+/g, '').length;
}

/** A service is named, and it isn't the one of the booking under discussion. */
function namesOtherService(base: BaseBooking | undefined, services: ServiceMatch): boolean {
  return Boolean(base && services.matches.length && !services.matches.some((s) => s.id === base.service_id));
}

/**
 * Whether the message moves or cancels a booking the customer already has. A booking request of
 * this conversation (pending, or just proposed) is changed by proposing it again or withdrawn
 * instead, unless the message names another service; a booking made in this conversation, or
 * a move or cancellation waiting for a manager, is changed with the booking tools.
 */
function bookingChangeOf(
  ctx: PlanContext,
  base: BaseBooking | undefined,
  m: {
    change: ChangeCues;
    changeCue: boolean;
    hasWhen: boolean;
    supersedeWanted: boolean;
    newBooking: boolean;
    /** "make it the day before", "an hour later": counted from a booking's own time. */
    shift: boolean;
  },
  t: string,
): ChangeKind | undefined {
  const services = matchServices(t, ctx.services);
  const otherService = namesOtherService(base, services);
  const pendingBook = ctx.pending.some((p) => p.tool === 'book_slot');
  const pendingChange = ctx.pending.some((p) => BOOKING_CHANGE_TOOLS.has(p.tool));
  const open = base !== undefined && (base.status === 'pending' || base.status === 'proposed');
  const booked = base !== undefined && (base.status === 'executed' || base.status === 'on_file');
  if (m.change.cancel || (m.change.cancelPronoun && (pendingChange || (booked && !pendingBook))))
    return pendingBook && !otherService ? undefined : 'cancel';
  if (pendingChange && (m.change.move || (m.changeCue && m.hasWhen && !m.newBooking))) return 'reschedule';
  // A shift with no booking of this conversation to count from is one of a booking they have.
  if (!(m.change.move || m.supersedeWanted || (m.changeCue && (m.hasWhen || m.shift) && !base))) return undefined;
  // "make it a standard clean instead" changes the request; "move my window cleaning" is another booking.
  if (open) return otherService && m.change.move ? 'reschedule' : undefined;
  // "same time next week too": an extra visit, booked as a new one.
  if (booked)
    return /\b(too|also|another|additional|as well|again)\b/.test(t) && !m.change.move ? undefined : 'reschedule';
  if (base) return m.change.move ? 'reschedule' : undefined;
  return m.change.move || m.shift || /\b(move|moving|switch|push|change)\b/.test(t) ? 'reschedule' : undefined;
}

const relativeShift = (cues: Cues): boolean =>
  cues.relativeShiftDays !== undefined || cues.relativeShiftMinutes !== undefined;

/** Words that say a value on file should change. */
export const CHANGE_CUE = new RegExp(
  String.raw`\b(change|changed|update|updated|new|switch|swap|swop|use|using|is now|now|replace|correct|set|moved|` +
    String.raw`different|instead|should be)\b|\bmy (?:e-?mail|email address)\b`,
);
export const PHONE_CUE = /\b(phone|number|cell|mobile|tel|telephone|call me|text me|reach me|contact me)\b/;
