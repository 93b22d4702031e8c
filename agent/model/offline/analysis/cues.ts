import { UNMARKED_QUESTION } from './asked-part.js';
import { relativeDayShift } from './day-shift.js';
import { IGNORE_REQUEST } from './retraction.js';
import { HYPOTHETICAL, ownRecordQuestion } from './own-record.js';
import { matchServices, type Service } from './services.js';
import { chatSentences, normalize } from './text.js';

/** "I'll just call the office", "we'll email you": how they will be in touch with us (a statement, no request). */
export const THEY_WILL_CONTACT_US = new RegExp(
  String.raw`\b(?:i'?ll|i will|i'?m going to|we'?ll|we will) (?:just |probably |maybe )?` +
    String.raw`(?:call|email|e-mail|text|ring|phone|contact|reach)\b`,
);

/** What a customer message asks for. Several can be true at once ("book … and email me …"). */
export interface Cues {
  greeting: boolean;
  thanks: boolean;
  farewell: boolean;
  /** A short yes ("yes please", "sure, go ahead"). */
  affirm: boolean;
  /** A short no ("no thanks"). */
  deny: boolean;
  /** Phrased as a question (and not as a request to act). */
  question: boolean;
  /** Asks to book: "book", "schedule", "can someone come/fix …". `strong` when a booking verb is used. */
  book: { strong: boolean; weak: boolean };
  /** Changes something already requested: "same time next week", "make it 3pm", "move it to Thursday". */
  reschedule: boolean;
  sameTimeNextWeek: boolean;
  /** Shifts by a relative amount: "an hour later" → +60. */
  relativeShiftMinutes?: number;
  /** Shifts by whole days, keeping the time: "push it back by a day" → +1. */
  relativeShiftDays?: number;
  /** Takes back a request: "never mind", "cancel that request", "don't book it". */
  withdraw: boolean;
  /** Cancels a booking ("cancel my appointment on Friday"). */
  cancelBooking: boolean;
  /** "email me the confirmation/details/receipt". */
  sendEmail: boolean;
  /** Asks about the account: bookings, tickets, contact details or everything. */
  lookup?: 'bookings' | 'tickets' | 'contact' | 'account';
  /** Tries to talk the assistant out of its rules. */
  injection: boolean;
  /** Asked for later or in theory ("just checking, not booking yet", "in theory could u …"): no visit now. */
  justAsking: boolean;
  /** Says outright that nothing needs doing ("just venting, no need to do anything"). */
  noAction: boolean;
}

const GREETING = /^(hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening)|greetings)\b/;
const THANKS = /\b(thanks|thank you|thx|ty|cheers|much appreciated|appreciate it)\b/;
const FAREWELL = new RegExp(
  String.raw`\b(bye|goodbye|good bye|see you|see ya|` +
    String.raw`have a (?:good|great|nice) (?:day|one|evening|weekend)|talk (?:to you )?later)\b`,
);
const AFFIRM = new RegExp(
  '^(?:(?:' +
    [
      'yes|yeah|yep|yup|sure|ok|okay|please do|go ahead|do it|sounds good|that works|perfect|great',
      'absolutely|definitely|please|pls|plz|correct|right|that one|yes please|go for it',
      // "yes, submit it again" to our offer to submit an expired request again
      'submit it again|submit it|resubmit it|resubmit|send it again|try again|again',
      // "yes please, just that then" to our question whether to book without a part we don't do
      "just that(?: then)?|without (?:it|that)(?: then)?|(?:that'?s |that is )?fine|that(?:'ll| will) do",
    ].join('|') +
    String.raw`)[\s,.!]*)+(?:please|thanks|thank you)?[\s.!]*$`,
);
const DENY = new RegExp(
  String.raw`^(?:no|nope|nah|no thanks|no thank you|not now|not really|don't|dont|that's all|that is all|all good)\b` +
    String.raw`[\s,.!]*(?:thanks|thank you|i'm good|im good|that's all)?[\s.!]*$`,
);
/**
 * "just curious, …", "quick q re the tv mount - does the tech…", "my actual q: …": the customer says a question
 * follows, so it is one without its mark (a past problem asked about this way asks what happens, reports nothing).
 */
const ANNOUNCED_QUESTION = new RegExp(
  String.raw`\b(?:just (?:curious|asking)|out of curiosity|curious (?:if|whether|about)|` +
    '(?:quick|random|small|simple|silly|dumb|general|actual|real|main) (?:q|qs|question)|' +
    "my (?:actual |real |main )?(?:q|question)(?: is)?:|(?:q|question) for (?:you|u|ya|y'?all))(?![a-z0-9])",
);
/** "would the handyman on the 15th be able to talk to her in spanish": what the one coming can do, not a visit. */
const ABLE_TO =
  String.raw`(?:would|could|can) (?:the|your|ur) (?:[\w-]+ ){1,5}?be able to ` +
  String.raw`(?!(?:come|do|fix|make it|visit|get here|clean|install|mount|repair|start)\b)`;
const QUESTION_START = new RegExp(
  String.raw`^(?:what|what's|whats|when|where|why|how|who|which|do|does|did|is|are|was|were|will|should|may|am|` +
    String.raw`have|has|${ABLE_TO})\b`,
);
// "will I be charged if…" asks what happens; "can I get…", "would we be able to…" ask for something.
const REQUEST_START = new RegExp(
  String.raw`^(?:(?:can|could|would|will) (?:you|u|ya|someone|somebody|one of your)|(?:can|could) (?:i|we)|` +
    String.raw`(?:would|will) (?:i|we) be able to|` +
    // "what i actually want is the tv put up": what they want, said as a cleft, is not a question.
    String.raw`what (?:i|we) (?:actually |really |do )?(?:want|need|'d like|would like) is)\b`,
);

const BOOK_STRONG = new RegExp(
  String.raw`\b(` +
    [
      'book|booking for|rebook|re-book|schedule|reserve',
      'set up (?:a|an) (?:appointment|visit|cleaning)',
      'make (?:a|an) (?:appointment|booking|reservation)',
      'sign (?:me|us) up|put (?:me|us) down',
      'get (?:me|us) (?:in|on the (?:calendar|schedule))',
      'pencil (?:me|us) in',
      // "hmm no, do the tuesday after that instead": the day wanted, said as what to do
      String.raw`(?<=(?:^|[.!?,;]\s*|\b(?:actually|then|so|ok|okay|lets|let's|just)\s))` +
        String.raw`(?:do|make it|go with|go for) (?:the |it on (?:the )?)?(?:mon|tue|wed|thu|fri|sat)\w*`,
    ].join('|') +
    String.raw`)\b`,
);
const BOOK_WEAK = new RegExp(
  String.raw`\b(` +
    [
      'come (?:out|over|by|round|around|and)',
      // "can somebody pop round tues": a visit asked for in its everyday words.
      '(?:pop|swing|stop|drop) (?:round|around|over|by)',
      String.raw`send (?:someone|somebody|a tech\w*|a cleaner|a plumber|over)`,
      // "if you could send a handyman on thursday": who does the work, named by trade.
      String.raw`send (?:a|an) (?:handyman|electrician|installer|fitter|repair ?man|repair person)`,
      // "could u send ur window people round to mine"
      String.raw`send (?:ur|your|the|a) (?:[a-z]+ ){0,2}?(?:people|person|guys?|crew|team|cleaners?|lady|man|tech\w*)` +
        '(?: round| over| out| by)?',
      // "could someone please come on friday": a please between the asker and the visit.
      '(?:can|could) (?:someone|somebody|you|u|ya) (?:please |pls |plz |kindly )?' +
        '(?:come|fix|fit|repair|install|mount|clean|do|look at|take a look|have a look|patch|hang|assemble|give|sort|' +
        'swap|replace|put up|put (?:my|our|the|a|an|some)|take care of|tidy)',
      // "need something put up on the wall": the job left vague, asked for all the same.
      '(?:need|want) (?:something|sth|stuff|some things|a few things|few bits|a few bits|some bits) ' +
        '(?:put up|fixed|hung|mounted|done|sorted|installed|to sort)',
      // "want the light in the bedroom swapped out": a job asked for with the subject left out.
      '^(?:want|need) (?:the|my|our|a|an|some|this|that|these|those)',
      "(?:i|we) (?:actually |really |just )?(?:need|want|would like|'d like|d like)|i'd like|we'd like",
      // "fancy a deep clean next week", "im after a window clean": the wish in everyday words.
      "(?:i|we)?(?:'?d| would)? ?fancy (?:a|an|some|getting)|" +
        "(?:i'?m|im|we'?re|were) (?:after|looking for) (?:a|an|some)",
      // "id like", "wed like": the same wish typed without the apostrophe.
      '(?:id|wed) (?:really |just )?like (?:a|an|some|someone|somebody|to)',
      String.raw`need (?:a|an) (?:repair|fix|visit|appointment|tech\w*|plumber|handyman|cleaner|clean\w*)`,
      '(?:can|could|may) (?:i|we) (?:get|have|book|schedule|do)',
      String.raw`(?:can|could) (?:a|your|the) (?:guy|tech\w*|handyman|plumber|cleaners?|person|crew) ` +
        '(?:come|fix|do|look)',
      String.raw`\bneed (?:it|this|them|that|someone|somebody|help)\b|^(?:i )?want (?:one|a|an|someone|somebody)\b`,
      'get (?:a|an|someone|somebody) (?:to|out|over|in|round|around)',
      // "can the cleaning crew come sometime early next week": whoever does the work, asked to come.
      String.raw`(?:can|could) (?:the|your|ur) (?:[a-z]+ ){0,2}?(?:crew|cleaners?|team|guys?|people|tech\w*|` +
        String.raw`handyman|plumber|installers?) (?:please |pls )?(?:come|pop|swing|stop)`,
      '(?:fix|repair|install|mount|replace|clean) (?:my|our|the|a)',
      // "any openings friday?" asks for a slot; "your opening hours" asks when we are open.
      'available|availability|openings?(?! (?:hours|times))|slots?',
      // "whats your last slot on thursday? ill take that one": a start asked about, taken in the same breath.
      String.raw`(?:i'?ll|i will|we'?ll) take (?:it|that(?: one)?|the (?:first|last|earliest|latest) one)(?! as\b)`,
    ].join('|') +
    String.raw`)\b`,
);

const RESCHEDULE = new RegExp(
  String.raw`\b(` +
    [
      'same time|make it|make that|move it|move that|move (?:my|the) (?:booking|appointment|visit|cleaning)',
      'change it|change that|change (?:the )?(?:time|day|date)|switch (?:it|that|to)',
      String.raw`push it|push that|bump it|instead|actually|reschedul\w*|rather`,
      "how about|what about|can we do|could we do|let'?s do|let'?s make it",
      String.raw`(?:an? |\d+ |two |three )?(?:hour|hours|minutes?) (?:later|earlier)|a bit (?:later|earlier)`,
      'later that day|earlier that day|works better|better for me',
    ].join('|') +
    String.raw`)\b`,
);

const WITHDRAW = new RegExp(
  String.raw`\b(` +
    [
      'never ?mind|nvm|forget (?:it|that|about (?:it|that))',
      // "scratch what i said about…": taking back what they asked, in this conversation or an earlier one.
      String.raw`(?:scratch|scrap) (?:that|this|what i (?:said|asked|wrote|told you)|` +
        String.raw`my (?:last|earlier|previous) (?:message|request))`,
      String.raw`cancel (?:that|this|it|the|my)(?: (?:request|booking request|email|ticket|change|update|one))?\b` +
        '(?! (?:booking|appointment|visit|cleaning|clean|on|for|next|this|tomorrow))',
      "don'?t (?:book|send|change|update|bother|do (?:it|that)|go ahead|proceed)|don'?t worry about (?:it|that|this)",
      'do not (?:book|send|change|update|proceed)',
      'withdraw|take (?:it|that) back|call (?:it|that) off|changed my mind|change of plans?',
      'no longer (?:need|want)|hold off|stop (?:that|the) request|undo (?:that|it)',
      // "nah leave it actually, found more stuff for him", "wait 74.50?? nah leave it then": the request let go.
      String.raw`leave it(?: (?:then|actually|for now|after all|pls|please|as (?:it )?is))?(?=\s*(?:[.,!?;]|$))`,
      // "oh wait my husband already booked it, ignore me"
      IGNORE_REQUEST,
      // "forget the tv thing", "drop it pls": the request named loosely.
      String.raw`forget (?:about )?(?:the|my) (?:\w+ ){1,2}?(?:thing|request|idea|one)|drop (?:it|that|the request)`,
      // "forget the cancellation please", "scrap the move": the change asked for, named as a noun.
      String.raw`(?:forget|scrap|drop|ignore) (?:about )?(?:the|my|that) ` +
        String.raw`(?:cancel\w*|move|reschedul\w*|booking request|change|update|new (?:number|email|address))`,
      // "wait no, thats my work line. keep the old one": the value on file stays.
      String.raw`keep (?:the|my) (?:old|current|existing|same|original) (?:one|number|email|address|phone|time|day)`,
      // "leave it how it was", "keep things as they are": what is on file stays.
      '(?:leave|keep) (?:it|things|everything) (?:how|as|the way) (?:it|they) (?:was|were|is|are)|' +
        '(?:leave|keep) (?:it|things|everything) as is',
    ].join('|') +
    String.raw`)\b`,
);
const CANCEL_BOOKING = new RegExp(
  String.raw`\bcancel(?:l?ing)? ` +
    "(?:my|our|the|this|that|tomorrow's|next week's|friday's|monday's|tuesday's|wednesday's|thursday's|saturday's)" +
    String.raw` ?(?:upcoming |next )?(?:booking|appointment|visit|cleaning|clean|repair|install\w*|reservation)\b`,
);

const SEND_EMAIL = [
  /\be-?mail (?:me|us|it|that|this|them)\b/,
  new RegExp(
    String.raw`\bsend (?:me|us) (?:an? )?(?:e-?mail|confirmation|copy|receipt|summary|details|` +
      String.raw`the (?:confirmation|details|receipt|summary|info|information|invoice))\b`,
  ),
  new RegExp(
    String.raw`\bsend (?:the|a|an|that|this|my) ` +
      String.raw`(?:confirmation|details|receipt|summary|invoice|copy|info|information)\b` +
      String.raw`[^.!?]*\b(?:to me|e-?mail|inbox)\b`,
  ),
  /\b(?:confirmation|details|receipt|summary|copy|invoice)\b[^.!?]{0,20}\b(?:by|via|over|in an?|to my) e-?mail\b/,
  /\b(?:drop|shoot|fire off) (?:me|us) an? e-?mail\b/,
  // "send that to my email", "put it in an email for me": what was just said, by email.
  /\b(?:send|forward) (?:that|this|it) (?:over )?to my (?:e-?mail|inbox)\b/,
  /\bput (?:that|this|it) in (?:an? )?e-?mail\b/,
];

/**
 * "Email me instead of texting", "going forward please email me": how to be contacted from now on (a
 * preference), not a message to send now, unless something to send is named.
 */
const STANDING_EMAIL = new RegExp(
  String.raw`^(?![^]*\b(?:confirmation|details|receipt|summary|invoice|copy|info|information)\b)[^]*(?:` +
    String.raw`\be-?mail (?:me|us) (?:instead|rather|from now on|going forward|in (?:the )?future)\b|` +
    String.raw`\b(?:from now on|going forward|in (?:the )?future)\b[^.!?]*\be-?mail (?:me|us)\b)`,
);

/** What a booking the customer has is called, and what it is when it will happen as planned. */
const BOOKING_NOUN = String.raw`(?:booking|appointment|visit|cleaning|clean|reservation|repair|install\w*|mounting)s?`;
const STILL_ON = '(?:on|happening|going ahead|confirmed|booked)';

const LOOKUP: { kind: NonNullable<Cues['lookup']>; re: RegExp }[] = [
  {
    kind: 'tickets',
    re: new RegExp(
      String.raw`\b(?:my (?:open |support )?tickets?|status of my (?:ticket|complaint|claim)|` +
        String.raw`any (?:open )?tickets|tickets? (?:do i have|are open))\b`,
    ),
  },
  {
    kind: 'bookings',
    re: new RegExp(
      [
        String.raw`\b(?:what|which|any|list|show|see|check|tell me|when(?:'s| is| are)?|` +
          String.raw`do i have|have i got|upcoming|next)\b` +
          String.raw`[^.!?]*\b(?:bookings?|appointments?|visits?|reservations?|scheduled|cleanings?)\b` +
          String.raw`[^.!?]*\b(?:i have|i've got|do i|booked|coming up|upcoming|scheduled|on my account|` +
          'for me)?',
        String.raw`\bmy (?:upcoming |next |current |scheduled )(?:bookings?|appointments?|visits?|cleanings?)\b`,
        String.raw`\bwhen(?:'s| is) my next\b`,
        String.raw`\bwhat (?:bookings?|appointments?|visits?) do i have\b`,
        String.raw`\bam i (?:booked|scheduled)\b`,
        // Indirect: "is my cleaning still on?", "when's the tv guy coming?", "did my booking go through?"
        String.raw`\b(?:is|are) my \w+(?: \w+)? (?:still )?${STILL_ON}\b`,
        // "just checking my cleaning is still on": the same question, said as a statement.
        String.raw`\bmy (?:\w+ )?${BOOKING_NOUN} (?:is|are) (?:still )?${STILL_ON}\b`,
        String.raw`\b(?:when|what day|what time)(?:'s| is| are| will)? ` +
          String.raw`(?:the \w+ (?:guy|man|woman|lady|person|people|tech\w*|crew|cleaners?)|` +
          String.raw`you(?: guys)?|your (?:guy|tech\w*|crew|cleaners?|team)|someone|somebody)\b` +
          String.raw`[^.!?]*\b(?:coming|come|arriving|here)\b` +
          String.raw`(?![^.!?]*\b(?:usually|normally|typically|generally)\b)`,
        String.raw`\bdid my (?:\w+ )?(?:booking|appointment|visit|request|cleaning|reservation)\b` +
          String.raw`[^.!?]*\b(?:go through|get booked|confirmed|work)\b`,
        String.raw`\bremind me\b[^.!?]*\b(?:appointment|booking|visit|cleaning|coming)\b`,
        String.raw`\b(?:have|got) i (?:got )?anything\b[^.!?]*\b(?:with you|booked|scheduled|coming)\b`,
        String.raw`\bhave i got anything\b`,
        String.raw`\bdo i (?:\w+ )?have anything (?:\w+ )?(?:booked|scheduled)\b`,
        // "is it still on?" about a visit named before; "nothing still sitting in the calendar for me?"
        String.raw`\b(?:is|are) (?:it|that|they|this|we) still ${STILL_ON}\b`,
        String.raw`\b(?:anything|nothing)\b[^.!?]*\b(?:in|on) (?:the|my|your) (?:calendar|schedule|diary)\b`,
        // "just double checking, my fan installation is this Saturday at 9 am, correct?": their visit's time, checked.
        // "the drywall fella is thursday the 10th at 8, yeah?", "the wall repair is on the 16th at 9. that right?"
        String.raw`\b(?:my|the) (?:[\w-]+ ){0,3}?(?:${BOOKING_NOUN}|guy|fella|lady|man|person|people|cleaners?|` +
          String.raw`tech\w*|handyman|plumber|installer) (?:is|'s) ` +
          String.raw`(?:this|on|for|at|next|tomorrow|today|(?:mon|tues|wednes|thurs|fri|satur)day|the \d)\b[^.!?]*` +
          String.raw`[.!?]?\s*(?:\w+ ){0,2}?(?:\b(?:correct|right|yeah|yes|yea)\b|\?)`,
        // "tmrws cleaning, is that 8 or 9? cant remember": which of two times their own visit is at.
        String.raw`\b(?:is|was) (?:that|it|this) (?:at )?\d{1,2}(?::\d\d)?(?: ?[ap]m)? or ` +
          String.raw`\d{1,2}(?::\d\d)?(?: ?[ap]m)?\b` +
          String.raw`(?=[^.!]*\?|[^.!?]*\b(?:remember|forgot|not sure)\b)`,
      ].join('|'),
    ),
  },
  {
    kind: 'contact',
    re: new RegExp(
      [
        String.raw`\bwhat(?:'s| is)? (?:the |my )?` +
          String.raw`(?:email|e-mail|phone|number|address|contact details|details|preferences)\b` +
          String.raw`[^.!?]*\b(?:on file|do you have|have you got|on my account)\b`,
        String.raw`\b(?:which|what) (?:email|phone|address) (?:are you using|is on file)\b`,
        String.raw`\b(?:do|did) you(?: guys)? (?:have|still have|got) my\b` +
          String.raw`[^.!?]*\b(?:number|phone|email|address)\b[^.!?]*\bon file\b`,
      ].join('|'),
    ),
  },
  {
    kind: 'account',
    re: new RegExp(
      [
        String.raw`\b(?:what'?s|what is|show me|tell me|see|check|look up|pull up) ` +
          String.raw`(?:on |in )?my (?:account|profile|record|details|info)\b`,
        String.raw`\bmy account (?:details|info|summary)\b`,
        String.raw`\bwhat do you have on (?:file|me)\b`,
      ].join('|'),
    ),
  },
];

const INJECTION = new RegExp(
  String.raw`\b(` +
    [
      'ignore (?:all |any |your |the |previous |prior |these )*(?:rules|instructions|guidelines|policies|prompt)',
      "(?:it'?s|it is|this is|already|been) (?:already |been )?(?:pre-?)?approved|pre-?approved",
      'no need (?:for|to wait for) (?:approval|a manager)|skip (?:the )?(?:approval|manager|review)',
      'bypass|override|system prompt|developer mode|you are now|jailbreak|do it now without',
      'without (?:approval|asking)',
    ].join('|') +
    String.raw`)\b`,
);

/** "no need to do anything", "just venting", "not asking for anything": a heads-up that asks for no action. */
const NO_ACTION = new RegExp(
  String.raw`\b(?:(?:there'?s )?no need (?:for you )?to do anything|` +
    String.raw`(?:you )?(?:don'?t|do not) (?:need|have) to do anything|` +
    String.raw`nothing (?:you need|for you|needs) to (?:do|be done)|no action (?:needed|required|necessary)|` +
    String.raw`just (?:venting|ranting|moaning|grumbling|complaining|saying)|(?:not a|no) big deal|` +
    String.raw`not (?:asking|looking) for anything|` +
    // "I not want to change nothing in the account, only I ask": nothing to change, said in any grammar.
    String.raw`(?:don'?t|do not|not) want (?:to )?(?:change|update) (?:anything|nothing)|` +
    // "not trying to file a complaint or anything, i just wanted to know…"
    String.raw`not (?:trying|wanting|looking|going) to (?:file|make|lodge|raise|open|start) (?:a |an )?` +
    String.raw`(?:complaint|ticket|claim|fuss)|(?:don'?t|do not) want to (?:file|make|lodge|raise|open) ` +
    String.raw`(?:a |an )?(?:complaint|ticket|claim))\b(?! else)`,
);

/** "does that mean you'll…?": a question about what follows from something, not a request. */
const CONSEQUENCE_QUESTION = /\b(?:does|did|would|will) (?:that|this|it) mean\b[^.!?]*(?:[.!?]|$)/g;
const sansConsequenceQuestions = (t: string) => t.replace(CONSEQUENCE_QUESTION, ' ');

const WORD_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, half: 0.5 };

/** A visit of theirs: "my cleaning", "thursdays tv job", "tomorrow's visit" (not "a deep clean"). */
const OWN_VISIT =
  String.raw`(?:my|our|(?:mon|tues|wednes|thurs|fri|satur)days?'?s?|tomorrow'?s) (?:[\w-]+ ){0,2}?` +
  String.raw`(?:job|visit|booking|appointment|cleaning|clean|install\w*|repair|mount\w*|fitting)\b`;
/**
 * "thursdays tv job, what's that gonna set me back?", "roughly what time will the cleaners be finished on the
 * 18th?": the price or the end of a visit they have, which their booking tells, not the price list.
 */
const OWN_VISIT_COST_OR_END = new RegExp(
  [
    String.raw`\b${OWN_VISIT}[^.!?]*\b(?:set (?:me|us) back|come to|cost (?:me|us)|how much (?:is|will|do i owe)|` +
      String.raw`what do i owe)\b`,
    String.raw`\bhow much (?:is|will|does) ${OWN_VISIT}`,
    String.raw`\b(?:what time|when|by when)\b[^.!?]*\b(?:the|my|your|ur) (?:cleaners?|guy|tech\w*|crew|handyman|` +
      String.raw`installer|\w+ (?:visit|clean(?:ing)?|job))\b[^.!?]*\b(?:be finished|finish|be done|done by|` +
      String.raw`wrap\w* up|be out)\b[^.!?]*\b(?:on the \d{1,2}|tomorrow|(?:mon|tues|wednes|thurs|fri|satur)day)`,
  ].join('|'),
);

/** "What happens if my card is declined after the visit?" asks a policy or a price, not what is booked. */
const policyQuestion = (t: string) => /\b(?:cost|costs|price|prices|how much)\b/.test(t) || HYPOTHETICAL.test(t);

/** Which part of their own record the words ask about, if any. */
function lookupAsked(t: string): Cues['lookup'] {
  // Past the listed phrasings, a question whose subject is their own visit or record (a contact
  // detail named is the subject, whatever else the phrasing matches); a request
  // to come ("I need someone Tuesday") is one only when it asks when or who.
  const ownRecord =
    BOOK_WEAK.test(t) && !/\b(?:when|whens|what time|what day|which day|who)\b/.test(t)
      ? undefined
      : ownRecordQuestion(t);
  return ownRecord === 'contact' ? ownRecord : (LOOKUP.find((l) => l.re.test(t))?.kind ?? ownRecord);
}

export function detectCues(text: string): Cues {
  const t = normalize(text);
  const short = t.split(' ').length <= 6;
  const QTY = String.raw`(an?|\d+|one|two|three|four|half an?|a couple(?: of)?)\s*(hours?|hrs?|minutes?|mins?)`;
  // "an hour later", "two hours earlier"; "bring it forward 2 hours", "push it back an hour".
  const shift =
    // "one hour more late", as a learner may say it.
    new RegExp(String.raw`\b${QTY}\s+(later|earlier|more late|more early)\b`).exec(t) ??
    // "prepone my TV mounting appointment on Thursday by one hour": earlier by that much.
    new RegExp(
      String.raw`\bprepon\w*\s+(?:(?:it|that|this|(?:my|our|the)\s+(?:[a-z-]+\s+){0,3}?[a-z-]+)\s+)?` +
        String.raw`(?:on\s+\w+\s+)?(?:by\s+)?${QTY}\b`,
    ).exec(t) ??
    new RegExp(
      String.raw`\b(?:bring|brought|move|moving|moved|push|pushed|pushing|put|bump|bumped|shift|shifted)\w*\s+` +
        String.raw`(?:(?:it|that|this|(?:my|our|the)\s+(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+)?(?:forward|up|back)\s+` +
        // "an hour or two" leaves the amount open: asked, not guessed.
        String.raw`(?:by\s+)?${QTY}\b(?!\s+or\s+(?:two|2|three|3|so))`,
    ).exec(t);
  let relativeShiftMinutes: number | undefined;
  if (shift) {
    const qty = shift[1]!.startsWith('half')
      ? 0.5
      : shift[1]!.startsWith('a couple')
        ? 2
        : (WORD_NUMBERS[shift[1]!] ?? Number(shift[1]));
    const unit = shift[2]!.startsWith('h') ? 60 : 1;
    const earlier = /earl/.test(shift[3] ?? '') || /\b(?:forward|up)\s|\bprepon/.test(shift[0]);
    relativeShiftMinutes = Math.round(qty * unit) * (earlier ? -1 : 1);
  }
  // "What does a regular cleaning cost?" asks a price, not what is booked.
  // "in theory could u do a handyman hour on a sunday?": what is possible, asked for no visit now.
  const bookWeak = BOOK_WEAK.test(t) && !JUST_ASKING.test(t);
  // "any open tickets from my complaint? also whats ur refund timeline usually": the policy question is a
  // sentence of its own, and the account question beside it is still asked.
  // A change's cost ("would it cost me to push my friday clean back a day") is the change policy's question.
  const lookup =
    OWN_VISIT_COST_OR_END.test(t) && !/\b(?:cancel|move|moving|moved|push|reschedul|postpon|shift|bring)\w*/.test(t)
      ? 'bookings'
      : policyQuestion(t)
        ? chatSentences(t)
            // "which day is the handyman booked and what will it cost me": two questions joined by "and".
            .flatMap((s) => s.split(/\s+and\s+(?=(?:what|whats|which|when|whens|how|who|is|are|do|does|will)\b)/))
            .filter((s) => !policyQuestion(s))
            .map(lookupAsked)
            .find(Boolean)
        : lookupAsked(t);
  // "How far in advance can I book" asks about booking, with or without the question mark.
  // "my booking for the 9th" names a booking they have; "booking for" asks for one only without the possessive.
  const relativeShiftDays = relativeDayShift(t);
  const bookStrong =
    BOOK_STRONG.test(t.replace(/\b(?:my|our) (?:\w+ )?booking for\b/g, ' ').replace(BOOKING_LATER, ' ')) &&
    !INFO_ABOUT_BOOKING.test(t) &&
    !/^how\b[^.!?]*\bbook\b/.test(t);
  return {
    greeting: GREETING.test(t),
    thanks: THANKS.test(t),
    farewell: FAREWELL.test(t),
    affirm: short && AFFIRM.test(t),
    deny: short && DENY.test(t),
    question: /\?/.test(t) || ANNOUNCED_QUESTION.test(t) || isInformationQuestion(t),
    book: { strong: bookStrong, weak: bookWeak },
    reschedule: RESCHEDULE.test(t),
    sameTimeNextWeek: /\bsame time\b[^.!?]*\bnext week\b|\bnext week\b[^.!?]*\bsame time\b/.test(t),
    ...(relativeShiftMinutes ? { relativeShiftMinutes } : {}),
    ...(relativeShiftDays ? { relativeShiftDays } : {}),
    // "If I cancel the day before, is there a fee?" asks about a policy; it takes nothing back.
    withdraw:
      WITHDRAW.test(t) &&
      !/\b(?:if|when|what if|before|how late can|until when can) (?:i|we) cancel\b/.test(t) &&
      // "if hes sick and we have to call it off, are we stuck paying?": a case asked about.
      !/\b(?:if|what if|in case)\b[^.!?]*\b(?:have|had|need|needed) to (?:cancel|call (?:it|that|this) off)\b/.test(
        t,
      ) &&
      // "rather than cancel the weekly cleans altogether, how long can you pause them?"
      !/\b(?:rather than|instead of|without|not (?:wanting|trying) to) (?:cancel\w*|call\w* (?:it|them) off)\b/.test(t),
    cancelBooking: CANCEL_BOOKING.test(t),
    // "does that mean you'll email me now?" asks what happens, not for an email.
    sendEmail: SEND_EMAIL.some((re) => re.test(sansConsequenceQuestions(t))) && !STANDING_EMAIL.test(t),
    ...(lookup && !bookStrong ? { lookup } : {}),
    injection: INJECTION.test(t),
    noAction: NO_ACTION.test(t),
    justAsking: JUST_ASKING.test(t),
  };
}

/**
 * "want to show the wife before we book", "i'll decide once i've booked the flights": a booking the customer
 * will make later, which asks for none now.
 */
const BOOKING_LATER = new RegExp(
  String.raw`\b(?:before|until|till|once|when|after)\s+(?:i|we)(?:'ve|'ll| will| have)?\s+` +
    String.raw`(?:actually\s+|properly\s+)?` +
    String.raw`(?:book|booked|schedule|scheduled)\b|\bbefore\s+(?:booking|scheduling)\b`,
  'g',
);

/** How, when or where one can book, asked directly or not ("remind me when i can book it?"). */
const INFO_ABOUT_BOOKING =
  /\b(?:how|can i|when can i|when i can|where can i|where i can|how far ahead|how do i)\b[^.!?]*\bbook\b[^.!?]*\?/;

/** Starts like an information question ("how much…", "do you…"), i.e. not a request to act. */
export function isInformationQuestion(text: string): boolean {
  const t = normalize(text);
  if (QUESTION_START.test(t) && !REQUEST_START.test(t)) return true;
  // "We're moving next month, what do I need to do?": a later clause asks for information.
  return clauses(t).some(isInfoClause);
}

/** Said to be asked for later, or in theory: "could u…?" then asks what is possible, not for a visit now. */
const JUST_ASKING = new RegExp(
  String.raw`\b(?:in theory|theoretically|hypothetically|asking for (?:the )?future|for future reference|` +
    String.raw`(?:just )?asking for a friend|not booking (?:yet|now|anything))\b`,
);

const CLAUSE_END = new RegExp(
  String.raw`(?<=[.!?])\s+|,\s+|\s*\p{Extended_Pictographic}(?:\p{Extended_Pictographic}|\u200d|\ufe0f|\s)*|` +
    String.raw`(?<=\b(?:lol|lmao|haha+|hehe))\s+`,
  'u',
);

/**
 * Clauses of a chat message: cut after terminal punctuation, at commas, at emoji and after a laugh ("lol", "haha"):
 * typed as full stops ("we are not morning people lol whats the latest…").
 */
const clauses = (t: string) =>
  t
    .split(CLAUSE_END)
    .map((c) => c.trim())
    .filter(Boolean);

/** Words a clause may open with before its question ("like will ur…", "also do u…"). */
const CLAUSE_LEAD = new RegExp(
  String.raw`^(?:(?:so|and|but|also|ok|okay|like|anyway|anyways|btw|lol|oh|um|hmm|then|plus|` +
    String.raw`roughly|approximately|ballpark)\b[\s,—–-]*)+`,
);
/** A question put indirectly ("i was wondering whether…", "do you know if…", "is it true that…"). */
const INDIRECT_QUESTION = new RegExp(
  String.raw`^(?:i (?:was |am |'m |m )?(?:just )?wondering|(?:just )?wondering|i wonder|` +
    String.raw`(?:i )?(?:just )?(?:wanted|want|wanna|would like|'d like|d like) to know|` +
    String.raw`(?:i'?m |im )?curious|(?:do|does) (?:you|u|anyone) know|any idea) (?:if|whether)\b`,
);
/** …which still asks with a modal ("wondering if you could book me in", "if the install could happen…"). */
const POLITE_ASK = new RegExp(
  String.raw`^(?:(?!(?:i|we)\b)(?:[\w']+ ){1,3}(?:could|can|would|might|will)\b|` +
    String.raw`(?:i|we) (?:could|can|might) (?:get|have|book|schedule|squeeze|fit)\b)`,
);
/** The case a question is asked under, before it ("if i cancel the afternoon before how much do i lose"). */
const CONDITION_FIRST = new RegExp(
  String.raw`^(?:if|say|suppose|supposing|what if|in case) [^?]*?\b(?=(?:how|what|whats|what's|which|who|why|` +
    String.raw`do|does|did|is|are|will|would|should|could|can) ` +
    String.raw`(?:i|we|you|u|it|that|they|he|she|ur|your|the|there|much|long|` +
    String.raw`many|soon|late|early|happens)\b)`,
);
/**
 * Asks without a question mark: a question word, or an auxiliary before its subject. "when" and "where" open a
 * condition as often ("when u come friday pls bring a ladder"), so they ask only with an auxiliary after them.
 */
const UNMARKED_ASKS = new RegExp(
  String.raw`^(?:(?:how|what|whats|what's|why|which|who)\b|` +
    String.raw`(?:when|where) (?:do|does|did|is|are|can|will|would|should)\b|` +
    // "do it wednesday": "do" before "it" or "that" is the imperative.
    String.raw`do (?:i|we|you|u|they|ppl|people|someone|anyone|ur|your)\b|` +
    String.raw`(?:does|did|is|are|am|was|will|would|should|have|has) ` +
    String.raw`(?:i|we|you|u|it|that|this|there|they|he|she|my|our|ur|your|the team|someone|anyone|ppl|people)\b|` +
    // "will the plant based products mean it takes forever": a thing's effect asked about.
    String.raw`(?:does|did|is|are|will|would|should) the (?:[\w'-]+ ){1,3}` +
    String.raw`(?:mean|cost|costs|take|takes|include|need|affect|matter|make|change|be)\b|` +
    ABLE_TO +
    ')',
);

/** "can ur guys even hang something that big": whether it can be done at all is asked, not for it to be done. */
const DOUBTS_ABILITY = /^(?:can|could|do|does|will|would) (?:[\w']+ ){1,3}even\b/;

/**
 * Whether a clause asks for information: with its mark, a question form; without it, one of the surer forms
 * above; after a condition ("if … how much…") or indirectly ("i was wondering whether …") too. A request
 * form ("can you…", "could we…") asks us to act, however it is put.
 */
const isInfoClause = (clause: string) => {
  const marked = clause.endsWith('?');
  let c = clause.replace(CLAUSE_LEAD, '');
  const indirect = INDIRECT_QUESTION.exec(c);
  if (indirect) return !POLITE_ASK.test(c.slice(indirect[0].length).trim());
  const condition = CONDITION_FIRST.exec(c);
  if (condition) c = c.slice(condition[0].length);
  // "if i want a clean and a handle fixed could that be the same visit?": whether it would be so, in that case.
  if (condition && /^(?:could|can|would|might) (?:that|this|it|both|they) be\b/.test(c)) return true;
  if (DOUBTS_ABILITY.test(c)) return true;
  if (REQUEST_START.test(c)) return false;
  return marked ? QUESTION_START.test(c) || NOUN_QUESTION.test(c) : UNMARKED_ASKS.test(c);
};

/** "latest start time for a standard clean on a sat?", "price of a deep clean?": a question typed as its topic. */
const NOUN_QUESTION = new RegExp(
  String.raw`^(?:the |ur |your )?(?:(?:latest|earliest|last|first|usual|normal) )?` +
    String.raw`(?:start(?:ing)? times?|price|prices|cost|costs|fee|fees|charge|rates?|hours|opening hours|duration)` +
    String.raw` (?:for|of|on)\b`,
);

/** The text without its information-question clauses: what the customer asks us to do, if anything. */
export function requestPart(text: string): string {
  const t = normalize(text);
  if (QUESTION_START.test(t) && !REQUEST_START.test(t) && !/[.!?]\s/.test(t)) return '';
  // "quick q re the tv mount thurs - do i need to buy a bracket": an announced question needs no mark.
  const announced = ANNOUNCED_QUESTION.test(t);
  const parts = announced ? clauses(t).flatMap((c) => c.split(/\s+-\s+|:\s+/)) : clauses(t);
  const asks = (c: string) => isInfoClause(c) || (announced && UNMARKED_QUESTION.test(c));
  // "If I call off a clean the day before, what do I pay?": the condition belongs to the question after it.
  return parts.filter((c, i) => !asks(c) && !(CONDITION.test(c) && parts[i + 1] && asks(parts[i + 1]!))).join(' ');
}

/** A clause that sets up a question's case ("so if I…", "what if we…", "once you…", "in case…"). */
const CONDITION = /^(?:(?:so|and|but|ok|okay) )?(?:if|what if|once|in case|suppose|say) (?:i|we|you|my|our|the|a)\b/;

/**
 * The sentences that take something back ("never mind the windows. but email me from now on"): what
 * the rest of the message asks for says nothing about which request is withdrawn.
 */
function withdrawingSentences(t: string): string {
  const own = t.split(/(?<=[.!?])\s+/).filter((s) => WITHDRAW.test(s));
  return own.length ? own.join(' ') : t;
}

/** Which kind of pending request a withdrawal talks about, if it says. */
export function withdrawTarget(
  text: string,
  services: readonly Service[] = [],
): 'book_slot' | 'send_email' | 'update_customer' | 'create_ticket' | undefined {
  // "I'll email you about it later" says how they'll be in touch, not which request to take back.
  const t = withdrawingSentences(normalize(text)).replace(
    new RegExp(`${THEY_WILL_CONTACT_US.source}[^.!?]*`, 'g'),
    ' ',
  );
  if (/\b(ticket|complaint|claim)\b/.test(t)) return 'create_ticket';
  if (
    new RegExp(
      String.raw`\b(change|update|changing|updating)\b` +
        String.raw`[^.!?]*\b(email|e-mail|phone|number|address|name|preferences?|details)\b` +
        String.raw`|\b(address|phone number|my details|preferences?)\b`,
    ).test(t)
  ) {
    return 'update_customer';
  }
  if (/\b(send|sending|the email|that email|e-?mail me|e-?mail)\b/.test(t)) return 'send_email';
  if (/\b(book|booking|appointment|visit|slot|clean\w*|repair|install\w*|reservation)\b/.test(t)) return 'book_slot';
  // "never mind the windows": a service named is a booking request.
  if (matchServices(t, services).matches.length) return 'book_slot';
  return undefined;
}
