import { closedDays } from '../business/calendar.js';
import { readContractions } from './chat-contractions.js';

/*
 * The business's vocabulary, in one place: how customers say things and which words the help
 * centre and the service catalogue use for them. The help-centre search (mcp-server) expands a
 * question with it before ranking articles, and the offline planner reads the same expansions
 * when it picks the sentences to quote, so the two never disagree about what a word means.
 */

/**
 * A small thesaurus of the business: how customers say things → the words the help centre uses.
 * Keys are lower-case words or phrases matched on word boundaries (longest first, each word used
 * once); expansions count less than the customer's own words. Written for this help centre while
 * looking at the paraphrased evaluation questions, so keep it general: concepts, not questions.
 */
export const THESAURUS: readonly {
  say: readonly string[];
  means: string;
  /**
   * The help centre uses these words in another sense (a "vacuum cleaner", a calendar "open" 14 days
   * ahead), so a question's word counts no more than what it means there.
   */
  otherSense?: true;
  /** Its phrases mean nothing word by word: "running behind" is not running, "after the window" no window. */
  idiom?: true;
}[] = [
  {
    say: ['call off', 'called off', 'calling off', 'scrap', 'drop the booking', 'bail', 'bail on', 'back out of'],
    means: 'cancel',
  },
  // A change at the last minute is a late one: inside the 24 hours before the visit (no minute of a clock).
  { say: ['last minute', 'last-minute', 'short notice'], means: 'late within 24 hours', idiom: true },
  {
    say: ['push', 'pushed', 'postpone', 'another day', 'different day', 'change the date', 'move my appointment'],
    means: 'reschedule move',
  },
  {
    say: ['without paying', 'for free', 'at no cost', 'no cost', 'without a fee', 'without charge'],
    means: 'free charge',
  },
  { say: ['appointment', 'appointments'], means: 'visit' },
  {
    say: ['nobody home', 'no one home', 'nobody was home', 'no one was home', 'wasnt home', 'not there'],
    means: 'missed no-show',
  },
  { say: ['fever', 'flu', 'covid', 'sick', 'unwell', 'vomiting', 'contagious'], means: 'ill' },
  { say: ['tap', 'taps', 'sink'], means: 'faucet' },
  {
    say: ['pouring', 'flooding', 'burst', 'emergency', 'asap', 'right away', 'this afternoon', 'today'],
    means: 'same-day urgent',
  },
  {
    // The closed days by every name the business's calendar knows them by, and a few more.
    say: [
      ...new Set([
        ...closedDays(2000).flatMap((d) =>
          d.names.flatMap((n) => [n.toLowerCase(), n.toLowerCase().replace(/'/g, '')]),
        ),
        'july 4th',
        'july 4',
        'new year',
        'easter',
      ]),
    ],
    means: 'holiday',
  },
  // "Check" alone is also a background check ("do you check your people"): only a check that pays counts.
  {
    say: ['apple pay', 'google pay', 'paypal', 'venmo', 'cash', 'cheque', 'by check', 'a check', 'personal check'],
    means: 'payment method',
  },
  { say: ['visa', 'mastercard', 'amex', 'credit card', 'debit card', 'bank'], means: 'card' },
  { say: ['money back', 'money shows up', 'reimburse', 'reimbursed'], means: 'refund' },
  { say: ['present', 'voucher', 'housewarming', 'birthday'], means: 'gift' },
  { say: ['something extra', 'gratuity', 'tips'], means: 'tip' },
  {
    say: [
      'statement',
      "don't recognise",
      "don't recognize",
      'unrecognised',
      'unrecognized',
      'billed twice',
      'overcharged',
    ],
    means: 'charge question',
  },
  { say: ['again', 'redo', 'came back', 'come back', 'still broken', 'stopped working'], means: 'guarantee claim' },
  {
    say: ['gave out', 'gives out', 'given out', 'died', 'dead', 'conked out', 'packed up', 'quit working'],
    means: 'fails stops working warranty',
  },
  { say: ['wobbling', 'wobbly', 'came loose', 'loose', 'rattling'], means: 'installation warranty' },
  {
    say: ['tidy', 'declutter', 'clean up before', 'get ready', 'what to do before', 'what do i do before', 'prep'],
    means: 'ready prepare',
  },
  { say: ['vetted', 'vetting', 'screened', 'criminal record', 'stranger', 'trustworthy'], means: 'background check' },
  { say: ['broke', 'broken', 'smashed', 'scratched', 'knocked over', 'stained', 'cracked'], means: 'damage insurance' },
  { say: ['sprays', 'mop', 'vacuum', 'chemicals', 'cleaning products'], means: 'supplies equipment' },
  {
    say: [
      'non-toxic',
      'toxic',
      'chemical-free',
      'natural products',
      'green products',
      'baby',
      'toddler',
      'allergic',
      'allergy',
      'scents',
      'scented',
      'unscented',
      'perfume',
      'perfumed',
      'strong smell',
      'strong smells',
    ],
    means: 'eco-friendly fragrance-free',
  },
  {
    say: ['at the office', 'at work', 'get inside', 'let you in', 'get in', 'spare key'],
    means: 'not home key lockbox',
  },
  {
    say: ['sell my details', 'my details', 'my data', 'share my information', 'personal data'],
    means: 'privacy personal information',
  },
  { say: ['stop emailing', 'texts', 'text me', 'call me instead', 'unsubscribe'], means: 'contact sms' },
  { say: ['moving', 'move house', 'new place', 'relocating'], means: 'change address' },
  { say: ['taxes', 'tax', 'expenses', 'paperwork', 'copy of the bill'], means: 'receipt invoice' },
  { say: ['how much', 'what does it cost', 'what do you charge', 'rates'], means: 'price' },
  { say: ['expensive', 'pricier', 'pricey', 'cost more', 'costs more', 'charge more'], means: 'price fee surcharge' },
  {
    say: ['house cleaning', 'house clean', 'home clean', 'basic clean', 'normal clean', 'regular house cleaning'],
    means: 'standard home cleaning',
  },
  { say: ['cheaper', 'deal', 'save money', 'anything off', 'money off'], means: 'discount' },
  {
    say: [
      'every week',
      'biweekly',
      'fortnightly',
      'every other week',
      'every two weeks',
      'monthly',
      'regular cleaning',
    ],
    means: 'recurring plan',
  },
  { say: ['hang', 'put up', 'put in', 'fitted', 'mount', 'mounting'], means: 'install' },
  { say: ['shelves', 'shelf', 'pictures', 'odd jobs', 'assemble', 'sticks', 'sticky'], means: 'handyman sticking' },
  {
    say: ['same person', 'same cleaner', 'same technician', 'same guy', 'favourite', 'favorite'],
    means: 'specific technician',
  },
  {
    say: ['get someone out', 'easiest way', 'make an appointment', 'schedule a visit', 'set up a visit'],
    means: 'book',
  },
  { say: ['what happens next', 'what now', 'next step', 'next steps'], means: 'after book confirmation' },
  {
    say: ['island', 'out of town', 'outside town', 'send someone across', 'come out as far'],
    means: 'outside service area',
  },
  {
    say: ["mom's", 'mom', 'mother', 'dad', 'parents', 'relative', "friend's", 'rental', 'someone else'],
    means: 'different address',
  },
  { say: ['sunday', 'sundays', 'weekend', 'anyone around'], means: 'business hours' },
  { say: ['opening', 'open'], means: 'business hours', otherSense: true },
  { say: ['what time', 'turn up', 'exact time', 'when will', 'plan my morning'], means: 'arrival window' },
  { say: ['after the window', 'delayed', 'running behind', 'showed up late'], means: 'late delay', idiom: true },
  {
    say: ['compensation', 'for the trouble', 'make up for', 'make it right', 'get anything for', 'anything for that'],
    means: 'credit',
  },
  { say: ['elderly', 'pensioner', 'retired', 'retiree', 'oap', 'years old'], means: 'senior' },
  { say: ['locked in', 'locked into', 'commitment', 'tied in', 'tied into'], means: 'contract' },
  { say: ['skipped', 'forgot', 'left out', "didn't do", 'missed a spot'], means: 'missed satisfaction guarantee' },
  {
    say: [
      'says he is from',
      'says she is from',
      "says he's from",
      'says hes from',
      "saying he's from",
      'saying hes from',
      'claims to be from',
      'claiming to be from',
      'at my door',
      'not expecting',
      'suspicious',
      'scam',
      'impostor',
    ],
    means: 'who is coming identity',
  },
  { say: ["hasn't changed", 'still not changed', 'takes so long', 'still pending', 'hours ago'], means: 'approval' },
  { say: ['same visit', 'combine', 'at the same time', 'together', 'both'], means: 'more than one service' },
  { say: ['pay', 'paying'], means: 'charge fee cost price payment card' },
  { say: ['extra'], means: 'fee surcharge charge' },
  { say: ['charge extra', 'extra charge', 'charge more for', 'extra for'], means: 'travel surcharge' },
  { say: ['cost', 'costs'], means: 'price charge fee' },
  { say: ['charge', 'charges'], means: 'fee price' },
  { say: ['compensation', 'compensate'], means: 'refund' },
  { say: ['money'], means: 'refund charge payment' },
  { say: ['late'], means: 'delay' },
  { say: ['arrive', 'turn', 'show'], means: 'arrival window' },
  { say: ['inside'], means: 'access lockbox key home' },
  { say: ['missed', 'skipped', 'forgot'], means: 'guarantee re-clean' },
  { say: ['weekend', 'weekends'], means: 'saturday sunday' },
  { say: ['cancel'], means: 'cancellation' },
  { say: ['tip'], means: 'tipping' },
  { say: ['safe'], means: 'safety background vetting insurance' },
  { say: ['sick', 'ill'], means: 'illness' },
  { say: ['dog', 'dogs', 'cat', 'cats', 'puppy', 'kitten'], means: 'pet' },
  { say: ['mom', 'mum', 'mother', 'dad', 'father'], means: 'parent family' },
  { say: ['place'], means: 'address property' },
  { say: ['where'], means: 'area address' },
  { say: ['move'], means: 'reschedule' },
  // A deadline asked about in other words: the articles say "within 60 days", "up to 7 days after".
  {
    say: ['time limit', 'deadline', 'too late', 'how long do i have', 'cut-off', 'cutoff', 'latest i can'],
    means: 'within up to days before',
  },
  // A date the customer has to meet: the help centre calls it a fixed deadline.
  {
    say: ['lease ends', 'lease is up', 'lease runs out', 'end of my lease', 'end of the lease', 'closing date'],
    means: 'fixed deadline',
  },
  { say: ['maker', 'makers', 'brand', 'manufacturers'], means: 'manufacturer' },
  { say: ['on hold', 'put on hold', 'take a break', 'break from', 'hold off', 'on ice', 'freeze'], means: 'pause' },
  { say: ['hang around', 'hang about', 'stick around', 'hold on for', 'how long will they stay'], means: 'wait' },
  { say: ['upfront', 'up front', 'in advance', 'down payment', 'ahead of time'], means: 'deposit' },
  { say: ['ring', 'phone you', 'give you a call'], means: 'call' },
  {
    say: ['declined', 'bounced', 'bounces', 'bounce', "didn't go through", 'did not go through'],
    means: 'payment fails',
  },
  { say: ['mark up', 'marked up', 'mark-up', 'marks up'], means: 'markup' },
  { say: ['colour', 'color', 'shade', "doesn't match", 'does not match', 'mismatch'], means: 'paint match' },
  // "my 16 yr old": an age, not something old ("the old thermostat").
  { say: ['year old', 'yr old', 'yrs old'], means: 'aged', idiom: true },
  { say: ['teenager', 'teen', 'kid', 'child', 'my son', 'my daughter'], means: 'aged over' },
  {
    say: ['cleaner', 'cleaners', 'cleaning lady', 'handyman guy', 'repair guy', 'tech'],
    means: 'technician',
    otherSense: true,
  },
  {
    say: [
      'snow',
      'snows',
      'snowing',
      'snowstorm',
      'blizzard',
      'storm',
      'stormy',
      'ice',
      'icy',
      'hurricane',
      'heavy rain',
    ],
    means: 'severe weather storms roads',
  },
  {
    say: ['freelancer', 'freelancers', 'freelance', 'contractor', 'contractors', 'self-employed', 'agency', 'payroll'],
    means: 'employee subcontractor',
  },
  { say: ['wardrobe', 'sofa', 'couch', 'dresser', 'bookcase', 'cupboard', 'bed frame', 'piano'], means: 'furniture' },
  { say: ['shift', 'shifting'], means: 'move' },
  {
    // "is it still any good": whether something old can still be used is whether it has expired.
    say: [
      'run out',
      'runs out',
      'expiry',
      'expiration',
      'lapse',
      'lapses',
      'valid for',
      'still any good',
      'still valid',
    ],
    means: 'expire',
  },
  { say: ['bill', 'billed', 'billing'], means: 'charge price' },
  { say: ['claim'], means: 'guarantee warranty cover' },
  { say: ['certain'], means: 'particular specific' },
  {
    say: ['not home', 'not be home', "won't be home", 'wont be home', 'not home yet', 'not back yet'],
    means: 'missed visit',
  },
  { say: ['pick up', 'picks up', 'picking up', 'fetch'], means: 'collect' },
  { say: ['beforehand', 'in good time'], means: 'ahead before' },
  // Being told of something ahead ("will someone let me know?"), not "tell me the price".
  {
    say: [
      'will someone tell me',
      'will you tell me',
      'do you tell me',
      'let me know',
      'notify',
      'notified',
      'warn me',
      'heads up',
      'get told',
    ],
    means: 'message',
  },
  // Money that "comes off" a bill: the help centre says a credit or balance is used.
  { say: ['come off', 'comes off', 'taken off', 'knocked off', 'deducted'], means: 'used' },
  // A balance kept for later, or spent without asking: the help centre says it is used automatically.
  {
    say: ['eaten up', 'get eaten', 'used up', 'save it for', 'keep it for', 'saving it for'],
    means: 'used automatically',
  },
  // A job priced as a whole, or by the time it takes.
  {
    say: [
      'by the hour',
      'per hour',
      'hourly',
      'set price',
      'fixed price',
      'one price',
      'per job',
      'flat fee',
      'flat rate',
    ],
    means: 'flat price hourly rate',
  },
  // Whether a request is final at once or waits for a person: the team checks it first.
  {
    say: [
      'booked right away',
      'booked straight away',
      'confirmed right away',
      'booked instantly',
      'actual person',
      'real person',
      'a human',
      'ok it',
      'okay it',
      'approve it',
    ],
    means: 'checked member team confirmed',
  },
  // When a change of the record counts: it is reviewed first.
  {
    say: ['switch over', 'switches over', 'take effect', 'takes effect', 'change right away', 'update right away'],
    means: 'reviewed change takes effect',
  },
  // Whether it is still possible after the day: the help centre gives how many days after the visit.
  {
    say: ['ship sailed', 'ship has sailed', 'too late now', 'missed my chance', 'still possible', 'after the fact'],
    means: 'days after',
  },
  // Away for a while: a recurring plan is paused, not cancelled.
  {
    say: [
      'away for',
      'away most of',
      'going away',
      'on vacation',
      'on holiday for',
      'travelling for',
      'traveling for',
      'out of the country',
    ],
    means: 'pause plan weeks',
  },
  // Late getting home for a visit: how long the technician waits.
  {
    say: ['stuck in traffic', 'running late', 'late getting home', 'late getting back', 'not back in time'],
    means: 'wait minutes cannot get into your home',
  },
  // The day after a closed day is its own day: "xmas" alone is the holiday (the calendar's names above).
  { say: ['day after xmas', 'day after x-mas', 'boxing day'], means: 'day after christmas' },
  // Whether someone must be there for the visit.
  {
    say: [
      'need to be there',
      'need to be home',
      'have to be there',
      'have to be home',
      'be there when',
      'be home when',
    ],
    means: 'home at the start aged 18 or over',
  },
  {
    say: ['residents only', 'resident parking', 'permit parking', 'parking permit', 'stickers'],
    means: 'visitor permit',
  },
  { say: ['concierge', 'doorman', 'front desk', 'reception desk', 'building manager'], means: 'concierge doormen' },
  // Whether the check is done once or repeated.
  { say: ['check your people', 'check your staff', 'check your workers', 'when you hire'], means: 'background check' },
  { say: ['again later', 'checked again', 'check again', 'rechecked', 're-checked'], means: 'every 12 months' },
  { say: ['latest', 'at the latest'], means: 'late' },
  {
    say: ['count from', 'counts from', 'counted from', 'start counting', 'clock start', 'clock starts'],
    means: 'start',
  },
  { say: ['showed up', 'shows up', 'show up', 'turned up', 'got here', 'got there'], means: 'arrive' },
  // Irregular forms the help centre's stemmer does not join to the verb it uses.
  { say: ['sent'], means: 'send' },
  { say: ['bought'], means: 'buy' },
  { say: ['took'], means: 'take' },
];

/** "I'm 70", "I am 82", "70 years old", "65+": an age, which means the senior discount. */
const AGE = new RegExp(
  [
    String.raw`\b(?:i'?m|i am|aged?)\s+(?:[6-9]\d|1[01]\d)\b`,
    String.raw`\b(?:[6-9]\d|1[01]\d)\s*(?:years? old|yo|\+|and over|or over|or older)(?!\w)`,
    String.raw`\bover (?:6[5-9]|[7-9]\d)\b`,
  ].join('|'),
);

const OTHER_SENSE = new Set(THESAURUS.filter((t) => t.otherSense).flatMap((t) => t.say));
const IDIOMS = new Set(THESAURUS.filter((t) => t.idiom).flatMap((t) => t.say.filter((p) => p.includes(' '))));
const SYNONYMS = new Map<string, string>();
for (const { say, means } of THESAURUS)
  for (const phrase of say) SYNONYMS.set(phrase, [SYNONYMS.get(phrase), means].filter(Boolean).join(' '));
const SYNONYM_KEYS = [...SYNONYMS.keys()].sort((a, b) => b.length - a.length);

/** Lower-case words of a text as the thesaurus matches them (apostrophes, $ and inner hyphens kept). */
export function tokens(text: string): string[] {
  return readContractions(text)
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^a-z0-9'$-]+/)
    .map((w) => w.replace(/^[-'$]+|[-']+$/g, ''))
    .filter((w) => w.length > 0);
}

/**
 * How a question is put rather than what it asks about ("how long", "what happens if", "is it ok to"):
 * matched literally, their words would pull in any article that happens to use them ("jobs that run long").
 */
export const QUESTION_FRAMES: readonly string[] = [
  'how long',
  'that long',
  'this long',
  'how much',
  'how soon',
  'how often',
  'what happens',
  'what happened',
  'what if',
  'is it ok',
  'is it okay',
  'is that ok',
  'is that okay',
  'is it possible',
  'would it be possible',
  'is it alright',
  'is that a problem',
  'is that an issue',
  'do i have to',
  'would i have to',
  'will i have to',
  'do i need to',
  'i was wondering',
  'just wondering',
  'wondering',
  // Chat asides around the question: "quick one, …", "26 windows give or take", "is there a way to …".
  'quick one',
  'quick question',
  'random q',
  'random question',
  'give or take',
  'is there a way to',
  'is there any way to',
];

/** The words of the query that only frame it (see QUESTION_FRAMES). */
export function frameWords(query: string): Set<string> {
  const text = ` ${tokens(query).join(' ')} `;
  const out = new Set<string>();
  for (const frame of QUESTION_FRAMES) if (text.includes(` ${frame} `)) for (const w of frame.split(' ')) out.add(w);
  return out;
}

/**
 * Words hyphened into one ("the what-to-do-before-a-repair stuff") are a phrase said as one word: a chain of
 * three or more is read word by word, while a compound ("move-out", "non-toxic") stays whole.
 */
const phraseTokens = (query: string): string[] =>
  tokens(query).flatMap((w) => (w.split('-').length > 2 ? w.split('-') : [w]));

/** The thesaurus's phrases in the query with what they mean (longest first, each word used once). */
const phraseCache = new Map<string, readonly { key: string; means: string }[]>();

/**
 * One reply reads the same message for its phrases several times (search terms, idioms, translations, the
 * reader's terms): the scan over every key is done once per message. The cap bounds a long-running worker.
 */
export function matchedPhrases(query: string): readonly { key: string; means: string }[] {
  let found = phraseCache.get(query);
  if (!found) {
    if (phraseCache.size >= 500) phraseCache.clear();
    found = Object.freeze(scanPhrases(query));
    phraseCache.set(query, found);
  }
  return found;
}

function scanPhrases(query: string): { key: string; means: string }[] {
  let text = ` ${phraseTokens(query).join(' ')} `;
  const out: { key: string; means: string }[] = [];
  for (const key of SYNONYM_KEYS) {
    const needle = ` ${key} `;
    if (text.includes(needle)) {
      out.push({ key, means: SYNONYMS.get(key)! });
      text = text.split(needle).join(' ');
    }
  }
  return out;
}

/**
 * The query's single words the help centre uses in another sense, with the words they mean there: it says
 * "technician" where customers say "cleaner", so an article's "vacuum cleaner" is not what they asked about.
 * A narrower word ("Thanksgiving" for "holiday") is not one: it says more than its meaning, not less.
 */
export function translatedWords(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { key, means } of matchedPhrases(query))
    if (!key.includes(' ') && OTHER_SENSE.has(key)) out.set(key, tokens(means));
  return out;
}

/**
 * The one-word meanings of the query's idioms ("do I get anything for that" → credit, "bail on" → cancel):
 * what the customer asks about in the help centre's word, so it counts like their own words.
 */
export function idiomMeanings(query: string): string[] {
  return matchedPhrases(query)
    .filter((m) => m.key.includes(' ') && !QUESTION_FRAMES.includes(m.key) && !m.means.includes(' '))
    .map((m) => m.means);
}

/** Words of the query's idioms (see `idiom`) that are not in what they mean: "running behind" → running, behind. */
export function idiomWords(query: string): Set<string> {
  const out = new Set<string>();
  for (const { key, means } of matchedPhrases(query))
    if (IDIOMS.has(key)) for (const w of tokens(key)) if (!tokens(means).includes(w)) out.add(w);
  return out;
}

/** Phrases of the query that have an expansion (longest first, each word used once). */
export function expansions(query: string): string[] {
  const out = matchedPhrases(query).map((m) => m.means);
  if (AGE.test(query.toLowerCase().replace(/[’‘]/g, "'"))) out.unshift('senior');
  return out;
}

/**
 * The catalogue's side of the vocabulary: extra words customers use for a word that appears in a
 * service's name. Keyed by the name word, not by service id, so it works for whatever catalogue
 * the services table holds (a service whose name has none of these words still matches by name).
 */
export const SERVICE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  standard: [
    'regular',
    'basic',
    'routine',
    'normal',
    'standard',
    'weekly clean',
    'biweekly clean',
    'general clean',
    'house clean',
    'home clean',
    'maid',
    // "need the usual clean": the visit they have always had.
    'usual clean',
    'usual cleaning',
  ],
  deep: [
    'deep',
    'thorough',
    'spring clean',
    'top to bottom',
    'intensive',
    'grout',
    'limescale',
    'soap scum',
    'mildew',
    // What the deep clean adds to a standard one (its description).
    'baseboard',
    'skirting board',
    'behind the sofa',
    'behind the couch',
    'behind the furniture',
  ],
  move: [
    'move out',
    'move in',
    'moveout',
    'movein',
    'move-out',
    'move-in',
    'moving out',
    'moving in',
    'end of tenancy',
    'end of lease',
    'vacate',
    'deposit back',
    // The home emptied: "I need the empty flat cleaned properly". (Handing the keys back alone may come before the
    // home is empty, which is asked about.)
    'empty flat',
    'empty apartment',
    'empty house',
    'empty home',
  ],
  window: [
    'windows',
    'window cleaning',
    'window clean',
    'window washing',
    'clean the windows',
    'clean my windows',
    'wash the windows',
    'glass',
    // Who comes for it: "send ur window people round".
    'window people',
    'window person',
    'window guy',
    'window man',
    'window cleaner',
  ],
  handyman: [
    'handyman',
    'handy man',
    'odd job',
    'shelf',
    'shelves',
    'hang picture',
    'hang a picture',
    'pictures',
    'picture frame',
    // Hanging things on a wall is the handyman's first hour. "Frames" alone is also door and window frames
    // (a cleaning's work), so it counts only after a hanging verb; "..." stands for up to three words between.
    'hang ... frames',
    'hanging ... frames',
    'put up ... frames',
    'frames up',
    'frames hung',
    'photo frames',
    'framed prints',
    'framed photos',
    'artwork',
    'wall art',
    'gallery wall',
    'hang art',
    'hang some art',
    'curtain rod',
    'curtain rail',
    // Blinds are hung like a curtain rail: brackets into the wall, small-job work.
    'blinds',
    'put up ... blinds',
    'roller blind',
    'hang a mirror',
    'hang the mirror',
    // "hang a big heavy mirror in the hall": what it is like said between.
    'hang ... mirror',
    'mirror hung',
    'mirror up',
    'assemble',
    'assembly',
    'furniture',
    'sticking door',
    'cabinet hardware',
    'door keeps sticking',
    'door sticks',
    // A door that squeaks or creaks wants its hinges seen to: small-job work.
    'squeaky door',
    // Stairs that squeak or creak want a tread screwed down: small-job work.
    'squeaky stairs',
    'creaky stairs',
    'stairs squeak',
    'stairs creak',
    'squeaky bedroom door',
    'squeaking door',
    'creaky door',
    'door squeaks',
    'door hinge',
    // A door or cupboard off its hinge, re-hung or tightened: the same small job.
    'hinge',
    'hinges',
    'cupboard door',
    'cabinet door',
    'hanging off',
    'sticking',
    'wont close',
    "won't close",
    // A door that has swollen or dropped and no longer shuts: planed or adjusted, small-job work.
    'wont latch',
    "won't latch",
    'door ... latch',
    'door ... swollen',
    'swollen door',
    // A loose stair rail tightened: small-job work.
    'bannister',
    'banister',
    'handrail',
    'stair rail',
    'put together',
    'putting together',
    'flat pack',
    'flat-pack',
    'dresser',
    'bookcase',
    'wardrobe',
  ],
  faucet: [
    'faucet',
    'tap',
    'taps',
    'sink',
    'dripping',
    'drippy',
    'leaky faucet',
    'leaking faucet',
    'water under the sink',
    'under my sink',
    'under the sink',
    'under the kitchen sink',
    'under my kitchen sink',
  ],
  drywall: [
    'drywall',
    'sheetrock',
    'plasterboard',
    'hole in the wall',
    'hole in my wall',
    'hole in our wall',
    'dent in the wall',
    'patch',
    'patched',
    'through the wall',
    'hole in the',
    // "bashed the hallway wall in 2 spots, holes maybe fist size": holes in a wall, however they are told.
    'holes',
    'hole in ... wall',
    'holes in ... wall',
    'bashed ... wall',
    'dent in ... wall',
    // Filled and primed is the patch repair's finish ("can someone fill + prime them").
    'fill ... prime',
    'filled ... primed',
    'spackle',
  ],
  tv: ['tv', 'television', 'telly', 'mount my tv', 'tv mount', 'tv mounting', 'mount a tv'],
  thermostat: [
    'thermostat',
    'thermostats',
    'nest',
    'ecobee',
    'hive',
    'heating control',
    'heating controller',
    'control the heat',
  ],
  fan: ['ceiling fan', 'fan'],
};

/** Words in service names that say nothing about which service it is. */
export const SERVICE_NAME_FILLERS: readonly string[] = [
  'home',
  'clean',
  'cleaning',
  'repair',
  'install',
  'installation',
  'service',
  'hour',
  'wall',
  'mounting',
  'interior',
  'smart',
  'in',
  'out',
  'ceiling',
  'patch',
];

/**
 * Name words too common in other senses to count on their own ("move it to Thursday"): only their aliases name the
 * service.
 */
export const SERVICE_WORDS_NOT_ALONE: readonly string[] = ['move', 'window'];
