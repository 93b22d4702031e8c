import { findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js';
import { isEmail } from '../../../../schema/tools/common.js';
import type { TICKET_CATEGORIES, TICKET_PRIORITIES } from '../../../../schema/tools/create-ticket.js';
import { BUSINESS } from '../../../../schema/business/profile.js';
import { placeNames, SERVICE_AREA } from '../../../../schema/business/service-area.js';
import { isInformationQuestion, THEY_WILL_CONTACT_US } from './cues.js';
import { capitalize, clip, normalize, splitSentences } from './text.js';

export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

// ------------------------------------------------------------------------- email and phone

// "@+": a doubled @ is a typo to ask about, not a missing address.
const EMAIL_IN_TEXT = /[^\s@<>(),;:"'[\]]+@+[^\s@<>(),;:"'[\]]+/g;

/** Email-looking tokens, trailing punctuation removed; `valid` says whether the schema will accept it. */
export function extractEmails(text: string): { value: string; valid: boolean }[] {
  const written = [...text.matchAll(EMAIL_IN_TEXT)]
    .map((m) => m[0].replace(/^mailto:/i, '').replace(/[.,;:!?)\]>]+$/, ''))
    .map((value) => ({ value, valid: isEmail(value) }));
  return written.length ? written : spelledEmails(text);
}

/** "sophie at laurent-design dot example dot org": an address said in words, as it is read out over the phone. */
const SPELLED_EMAIL =
  /\b([a-z0-9._-]+)\s+(?:at|\[at\]|\(at\))\s+([a-z0-9-]+(?:\s+(?:dot|\[dot\]|\(dot\))\s+[a-z0-9-]+)+)/gi;

function spelledEmails(text: string): { value: string; valid: boolean }[] {
  return [...text.matchAll(SPELLED_EMAIL)].flatMap((m) => {
    const domain = m[2]!.split(/\s+(?:dot|\[dot\]|\(dot\))\s+/i);
    if (!/^[a-z]{2,}$/i.test(domain.at(-1)!)) return [];
    const value = `${m[1]}@${domain.join('.')}`.toLowerCase();
    return isEmail(value) ? [{ value, valid: true }] : [];
  });
}

/**
 * The word a space cut off the front of an address given right after the email's lead: "change my email to aisha
 * rahman@example.org" may be aisharahman@ or aisha.rahman@, so the part after the space is not the address.
 */
const EMAIL_LEAD_WORD = new RegExp(
  String.raw`\be-?mail(?: address)?(?: (?:is|to|should be|will be|now)| ?[:-])+ ?` +
    String.raw`(?!(?:is|to|be|now|just|actually|new|the|my|this|here|simply|officially)\b)([a-z0-9._-]+) $`,
  'i',
);

export function spacedEmailPart(text: string, email: string): string | undefined {
  const at = text.indexOf(email);
  if (at < 0) return undefined;
  return EMAIL_LEAD_WORD.exec(text.slice(0, at))?.[1];
}

/** A short message that only fixes an address's ending: "meant gmail.com", ".com on the end", "its @yahoo.com". */
const DOMAIN_GIVEN = /(?:^|[\s@])@?((?:[a-z0-9-]+\.)+[a-z]{2,})(?![\w.@-])/i;
const ENDING_GIVEN = /(?:^|\s)\.([a-z]{2,6})(?![\w.@-])/i;

/**
 * The address `incomplete` ("james@gmail", "chloe@gmial") made whole by a message giving only its domain or its
 * ending; undefined when the message is more than that or the result is still no address.
 */
export function completedEmail(incomplete: string, text: string): string | undefined {
  if (text.match(EMAIL_IN_TEXT) || text.split(/\s+/).length > 12) return undefined;
  const [local, domain = ''] = incomplete.split('@');
  const whole = DOMAIN_GIVEN.exec(text);
  const ending = whole ? undefined : ENDING_GIVEN.exec(text);
  const fixed = whole
    ? `${local}@${whole[1]}`
    : ending && !domain.includes('.')
      ? `${local}@${domain}.${ending[1]}`
      : undefined;
  return fixed && isEmail(fixed) ? fixed.toLowerCase() : undefined;
}

/** Numbers in customer text are read as this region's unless they carry a country code. */
const PHONE_REGION = 'US';

/**
 * Phone numbers as written, found by libphonenumber. "Extended" keeps numbers that are possible but not assigned
 * (the 555 exchange), since a record should take what the customer gave; dates, times and postal codes are not
 * phone-shaped to it.
 */
export function extractPhones(text: string): string[] {
  const withoutEmails = text.replace(EMAIL_IN_TEXT, (s) => ' '.repeat(s.length));
  const out: string[] = [];
  for (const m of findPhoneNumbersInText(withoutEmails, { defaultCountry: PHONE_REGION, extended: true })) {
    const value = withoutEmails.slice(m.startsAt, m.endsAt).trim();
    if (!out.includes(value)) out.push(value);
  }
  return out.length === 1 ? [correctedEnding(withoutEmails, out[0]!)] : out;
}

/** "555 201 8841… sorry typo, 8814": four digits given as a correction after the number replace its last four. */
const ENDING_CORRECTED = /\b(?:typo|i meant|meant|correction|should be|it'?s|ends in)\b[\s,:-]*(\d{4})\s*(?:[.!)]|$)/i;
function correctedEnding(text: string, phone: string): string {
  const after = text.slice(text.indexOf(phone) + phone.length);
  const fix = ENDING_CORRECTED.exec(after)?.[1];
  if (!fix) return phone;
  let i = phone.length;
  let left = 4;
  while (i > 0 && left > 0) if (/\d/.test(phone[--i]!)) left--;
  const tail = phone.slice(i);
  let k = 0;
  return phone.slice(0, i) + tail.replace(/\d/g, () => fix[k++]!);
}

/**
 * Digit runs written like a phone number that libphonenumber cannot dial ("201-9999": no area code), to ask
 * about instead of storing. Dates written with dashes are not one.
 */
export function incompletePhones(text: string): string[] {
  const found = extractPhones(text);
  const rest = found.reduce((t, p) => t.split(p).join(' '), text.replace(EMAIL_IN_TEXT, ' '));
  return [...rest.matchAll(/(?<![\d/])\(?\d{3}\)?[\s.-]?\d{3,4}(?:[\s.-]\d{1,2})?(?![\d/])/g)]
    .map((m) => m[0].trim())
    .filter((v) => {
      const digits = v.replace(/\D/g, '').length;
      // "555-201": six digits written in a phone's groups is a number cut short; six in a row may be anything.
      const grouped = digits === 6 && /^\(?\d{3}\)?[\s.-]\d{3}$/.test(v);
      return (grouped || digits >= 7) && digits <= 9 && !/^\d{4}-\d{2}-\d{2}$/.test(v);
    });
}

/** The number a written phone dials (E.164), or undefined when it is not a possible number. */
export function phoneKey(written: string | null | undefined): string | undefined {
  if (!written) return undefined;
  return parsePhoneNumberFromString(written, { defaultCountry: PHONE_REGION })?.number;
}

/** Two written phones that dial the same number ("+1 555 201 3344" and "(555) 201-3344"). */
export function samePhone(a: string | null | undefined, b: string | null | undefined): boolean {
  const ka = phoneKey(a);
  return ka !== undefined && ka === phoneKey(b);
}

export const digitsOf = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '');

// ------------------------------------------------------------------------------- address

export interface AddressChange {
  line1: string;
  unit?: string;
  city: string;
  postal_code: string;
}

export type AddressExtraction = { ok: true; address: AddressChange } | { ok: false; partial: string } | undefined;

const ADDRESS_CUE = new RegExp(
  String.raw`\b(` +
    [
      String.raw`(?:moved|moving|relocat\w*) (?:to|into)`,
      // "moved!! 8 Elm St…", "new place is …"
      String.raw`moved(?=\s*[!:,-]+\s*\d)`,
      String.raw`new (?:place|home|house|apartment|flat|one)(?: is)?`,
      // "Finally got the keys! It's 12 Oak Street, apt 5C, …": a whole street address said to be "it".
      String.raw`(?:it'?s|its|it is)(?=\s+\d+[a-z]?\s+(?:[a-z'-]+\s+){1,3}(?:st|street|rd|road|ave|avenue|ln|lane|` +
        String.raw`dr|drive|way|ct|court|pl|place|row|close|crescent|walk|yard|mews|terrace)\b)`,
      // "finally got a place: 12 oak lane…": the home they have got, then where it is.
      String.raw`(?:got|found|bought|rented) (?:a|an|our|my|the) (?:new )?(?:place|home|house|apartment|flat|condo)` +
        String.raw`(?=\s*[!:,-]*\s*\d)`,
      // "finally have a place of my own! it's 27 quayside road…": the home they have now, then where it is.
      String.raw`(?:place|home|house|apartment|flat) of (?:my|our) own[!.,\s]*(?:it'?s|its|it is|at)(?=\s+\d)`,
      "(?:we've|we have|i've|i have|we just|i just|we|i) (?:just |only |finally |recently )?moved",
      String.raw`new address|address (?:is now|is|to|has changed|changed)|address:?(?=\s+\d)`,
      '(?:change|update|correct) (?:my|our|the) (?:home )?address',
      '(?:now )?(?:live|living) at',
      // "here's my address finally: …", "address btw: …"
      // "here's my address for the account: 44 …"
      String.raw`(?:here'?s|here is) (?:my|our) (?:[a-z]+ )?address` +
        String.raw`(?: for (?:the|my|our|your) (?:account|file|records?))?`,
      String.raw`address \w+(?=:\s*\d)`,
      // "finally have my address for u: 88 quayside st …"
      String.raw`(?:my|our) address for (?:you|u|ya)(?=\s*:?\s*\d)`,
    ].join('|') +
    String.raw`)\b`,
  'i',
);
/** Cues that say an address change is meant even when the address itself is incomplete. */
const STRONG_ADDRESS_CUE = new RegExp(
  String.raw`\b(moved|relocat\w*|new address|address (?:is now|to|has changed|changed)|` +
    String.raw`(?:here'?s|here is) (?:my|our) (?:[a-z]+ )?address|` +
    String.raw`(?:place|home) of (?:my|our) own|(?:change|update|correct) (?:my|our|the) (?:home )?address)\b`,
  'i',
);
// The unit word ends at a dot, a space, a # or its number: "flats" is a word of its own, not "flat S".
const UNIT_RE =
  /(?:,\s*)?\b(apt|apartment|unit|suite|ste|flat)(?:\b|(?=\d))\.?\s*#?\s*([a-z0-9-]+)\b|(?:,\s*)?#\s*([a-z0-9-]+)\b/i;
// Typed in lower case too ("springfield sp 2105"): it is stored as the post writes it.
const POSTAL_RE = /,?\s*\b([A-Z]{1,3}\s?\d{3,5}|\d{5}(?:-\d{4})?)\s*\.?$/i;
const POSTAL_INSIDE = /,?\s*\b([A-Z]{1,3}\s?\d{3,5}|\d{5}(?:-\d{4})?)\b(?=[\s,]+[a-z])/i;
const STREET_RE = new RegExp(
  String.raw`\b(\d+[a-z]?\s+(?:[A-Za-z0-9'.-]+\s+){0,4}?` +
    '(?:st|street|rd|road|ave|avenue|blvd|boulevard|ln|lane|dr|drive|ct|court|way|pl|place|ter|terrace|cir|circle' +
    String.raw`|pkwy|parkway|hwy|highway|row|sq|square|view|close|crescent|cres|walk|yard|mews|grove|gardens|rise` +
    String.raw`|trail|loop)\b\.?)`,
  'i',
);

function unitLabel(kind: string, id: string): string {
  const k = kind.toLowerCase();
  const label =
    k.startsWith('apt') || k === 'apartment' ? 'Apt' : k === 'ste' || k === 'suite' ? 'Suite' : capitalize(k);
  return `${label} ${id.toUpperCase()}`;
}

/** "we moved to 12 Oak St Apt 3, Springfield SP 1042" → {line1, unit, city, postal_code}. */
export function extractAddress(text: string): AddressExtraction {
  // Several cues can come in one message ("We moved! New address is …"): read after each in turn.
  let first: AddressExtraction;
  for (const cue of text.matchAll(new RegExp(ADDRESS_CUE.source, 'gi'))) {
    // "my old address is …" names the value being replaced, never the new one.
    if (OLD_VALUE_BEFORE.test(text.slice(Math.max(0, cue.index - 20), cue.index))) continue;
    // "lockbox moved to the back door": a thing at the home moved, not the home.
    if (THING_MOVED.test(text.slice(Math.max(0, cue.index - 30), cue.index))) continue;
    const found = addressAfter(text, cue.index + cue[0].length);
    if (found?.ok) return found;
    first ??= found;
  }
  return first;
}

/** An address given on its own, answering our question for it ("14 Elm Road, Springfield SP 2105"). */
export function addressAnswer(text: string): AddressExtraction {
  return addressAfter(text.replace(/^\s*(?:(?:it'?s|its|here(?: you go)?|sure|ok(?:ay)?|yes)\b[\s,:!-]*)+/i, ''), 0);
}

/** "… from 4 Oak Crescent to 12 …" later in the sentence: an old street number, then "to" and the new one. */
const FROM_STREET_TO = /\bfrom\s+\d+[a-z]?\s[^.!?\n]*?\bto\s+(?=\d)/i;

/** The words a street's name ends in ("Harbor View Rd", "Elm Row"). */
export const STREET_TYPE =
  '(?:st|street|rd|road|ave|avenue|blvd|boulevard|ln|lane|dr|drive|ct|court|way|pl|place|ter|terrace|cir|circle|' +
  'pkwy|parkway|row|sq|square|close|crescent|cres|walk|yard|mews|grove|gardens|rise|trail|loop)';

/** What moved, right before "moved to", when it is something at the home ("the key safe has moved to …"). */
const THING_MOVED = new RegExp(
  String.raw`\b(?:lock ?box|key ?safe|key ?box|keys?|gate|buzzer|intercom|alarm|key ?pad|parking|mailbox|bins?)` +
    String.raw`(?: (?:has|has been|got|was|is|just))?\s+$`,
  'i',
);

/** Words right before a cue that make what follows the old value ("my old address is …"). */
const OLD_VALUE_BEFORE = /\b(?:old|previous|former|prior|last|past)\s+$/i;

/** Where an address ends: a sentence end (a period not part of an abbreviation), a dash, or "and/please". */
const ADDRESS_END = new RegExp(
  String.raw`(?<!\b(?:st|rd|ave|apt|ste|dr|ln|blvd|ct))\.\s+|[!?\n]|\s+[-–—]\s+|` +
    String.raw`\s+(?:and|please|thanks|thank you|can you|could you)\b`,
  'i',
);

function addressAfter(text: string, from: number): AddressExtraction {
  let rest = text.slice(from).replace(/^\s*[!:,-]*\s*(?:to|is|:|-)?\s*/i, '');
  // "from <old> to <new>": the value after the last "to" that starts an address.
  // So does "moved round the corner - from 4 X Crescent to 12 X Crescent": B is the new value wherever it is said.
  const fromTo = /^from\b.*\bto\s+(?=\d)/is.exec(rest) ?? FROM_STREET_TO.exec(rest);
  if (fromTo) rest = rest.slice(fromTo.index + fromTo[0].length);
  // The address ends at the sentence end (a period not part of an abbreviation) or at "and/please".
  rest = rest.split(ADDRESS_END)[0]!.trim();
  // "… MH 1024 (by the harbour)": a neighbourhood in brackets after the postal code is an aside.
  rest = rest.replace(/[.\s]+$/, '').replace(/\s*\([^()]*\)$/, '');
  const street =
    STREET_RE.exec(rest) ??
    new RegExp(
      String.raw`\b(\d+[a-z]?\s+[A-Za-z][A-Za-z'.-]*(?:\s+[A-Za-z][A-Za-z'.-]*){0,3}?)` +
        String.raw`(?=\s*(?:,|\b(?:apt|apartment|unit|suite|ste|flat)\b|#))`,
      'i',
    ).exec(rest);
  const strong = STRONG_ADDRESS_CUE.test(text);
  if (!street)
    return rest && strong
      ? { ok: false, partial: rest }
      : strong && /\b(moved|new address)\b/i.test(text)
        ? { ok: false, partial: '' }
        : undefined;
  let line1 = street[1]!.trim().replace(/\.$/, '');
  let after = rest.slice(street.index + street[0].length);
  // "45 Harbor View Rd": the shortest match stops at "View"; a street type right after belongs to it.
  const suffix = new RegExp(String.raw`^\s+${STREET_TYPE}\b\.?`, 'i').exec(after);
  if (suffix) {
    line1 = `${line1} ${suffix[0].trim().replace(/\.$/, '')}`;
    after = after.slice(suffix[0].length);
  }
  let unit: string | undefined;
  const u = UNIT_RE.exec(after);
  if (u && u.index <= 3) {
    unit = u[1] ? unitLabel(u[1], u[2]!) : `#${u[3]!.toUpperCase()}`;
    after = after.slice(u.index + u[0].length);
  }
  // The postal code ends the address; words after it ("… MH 1048 as of this week") are not part of it.
  const postal = POSTAL_RE.exec(after) ?? POSTAL_INSIDE.exec(after);
  let postal_code: string | undefined;
  if (postal) {
    postal_code = postal[1]!.trim().toUpperCase();
    after = after.slice(0, postal.index);
  }
  // "…, flat 2, still Elm Bay MH 1024": "still" says the town is unchanged; it is not part of its name.
  let city = after
    .replace(/^[\s,]+|[\s,]+$/g, '')
    .replace(/^(?:still|also)\s+(?:in\s+)?/i, '')
    .replace(/\s*,\s*/g, ' ')
    .trim();
  line1 = line1.replace(/\s+/g, ' ');
  const said = city;
  city = townAtEnd(said) ?? said;
  if (!postal_code || city.length < 2 || line1.length < 3) return strong ? { ok: false, partial: rest } : undefined;
  return { ok: true, address: { line1, ...(unit ? { unit } : {}), city, postal_code } };
}

/**
 * "same street lol, <town>": words before a place of the area that ends the city part are an aside, and the
 * place is spelled as the area spells it. A city the area does not know is kept as written.
 */
function townAtEnd(city: string): string | undefined {
  const said = normalize(city);
  const names = placeNames().sort((a, b) => b.length - a.length);
  const place = names.find((n) => said === normalize(n) || said.endsWith(` ${normalize(n)}`));
  // "58 Lantern Row, <neighbourhood> MH 1036": a neighbourhood is a part of its town, which the city is.
  return SERVICE_AREA.find((t) => t.neighbourhoods.some((n) => n.name === place))?.name ?? place;
}

/** Part of an address the message changes, to be completed from the record ("new unit 9, same building"). */
export interface AddressPatch {
  unit?: string;
  /** The street as the message says it, when it does: only a patch of the same street is completed. */
  line1?: string;
  /** A new street line ("number 50 on the same street now, everything else the same"): city and postal code stay. */
  street?: string;
}

/** "same postcode", "everything else the same": the rest of the address on file stays. */
const REST_KEPT = new RegExp(
  String.raw`\b(?:same (?:post ?code|postal code|zip(?: code)?|city|town)|` +
    String.raw`every ?thing else(?: is| stays)?(?: the)? same|rest (?:of it )?(?:is|stays) the same)\b`,
  'i',
);

/** Words that make a unit an address change: the building kept, the address named, a move or "new unit". */
const UNIT_CHANGE_CUE = new RegExp(
  String.raw`\b(?:same (?:building|block|complex|address|street)|address|moved|moving|relocat\w*|` +
    String.raw`new (?:unit|apt|apartment|flat|suite)|(?:unit|apt|apartment|flat|suite) (?:number )?(?:is )?now|` +
    String.raw`(?:add|missing|include|put) (?:the |my |a )?(?:unit|apt|apartment|flat|suite))\b`,
  'i',
);

/** "unit 9", "apt #4", "unit number is now 12", "flat C". */
const PATCH_UNIT = new RegExp(
  String.raw`\b(apt|apartment|unit|suite|ste|flat)(?:\b|(?=\d))\.?\s*` +
    String.raw`(?:(?:number|no\.?)\s*)?(?:is\s*)?(?:now\s*)?#?\s*([a-z0-9-]+)\b`,
  'gi',
);
/** What a unit is called by: digits, a letter, or both ("30", "B", "4C", "12-3"); never a word ("unit on it"). */
const UNIT_ID = /^(?:\d+[a-z]?|[a-z]\d*|\d+-\d+)$/i;

/** A unit said as the one left or replaced ("from unit 12", "not apt 3", "old unit 4"). */
const OLD_UNIT_BEFORE = /\b(?:from|not|old|previous|former|was|used to be|instead of)\s*(?:in\s+)?(?:the\s+)?$/i;

/**
 * The unit a message moves to or adds while the rest of the address stays ("we went from apt 2 to apt 9, same
 * building", "please add flat C to my address"): undefined when the message gives a full address
 * (extractAddress reads that) or says no change of address.
 */
export function extractAddressPatch(text: string): AddressPatch | undefined {
  if (extractAddress(text)?.ok) return undefined;
  // "not at 48 anymore, its 50 now": the street said last is the new one.
  const streets = REST_KEPT.test(text) ? [...text.matchAll(new RegExp(STREET_RE.source, 'gi'))] : [];
  const street = streets.at(-1)?.[1]?.trim().replace(/\.$/, '');
  if (street) return { street };
  if (!UNIT_CHANGE_CUE.test(text)) return undefined;
  return unitSaid(text);
}

/** The last unit a message names as its own, whatever cue is around it ("its unit 5", "apt 2B, same street"). */
export function unitSaid(text: string): (AddressPatch & { unit: string }) | undefined {
  const units = [...text.matchAll(PATCH_UNIT)].filter(
    (u) => UNIT_ID.test(u[2]!) && !OLD_UNIT_BEFORE.test(text.slice(Math.max(0, u.index - 25), u.index)),
  );
  const u = units.at(-1);
  if (!u) return undefined;
  const unit = unitLabel(u[1]!, u[2]!);
  const street = STREET_RE.exec(text);
  return { unit, ...(street ? { line1: street[1]!.trim().replace(/\.$/, '') } : {}) };
}

/** The record's address with the patch applied; undefined when there is none, or the patch names another street. */
export function applyAddressPatch(
  current: { line1: string; unit?: string | null; city: string; postal_code: string } | null | undefined,
  patch: AddressPatch,
): AddressChange | undefined {
  if (!current?.line1 || !current.city || !current.postal_code) return undefined;
  if (patch.street)
    return { line1: capitalizeWords(patch.street), city: current.city, postal_code: current.postal_code };
  const numberOf = (line: string) => /^\s*(\d+[a-z]?)\b/i.exec(line)?.[1]?.toLowerCase();
  if (patch.line1 && numberOf(patch.line1) !== numberOf(current.line1)) return undefined;
  return {
    line1: current.line1,
    ...(patch.unit ? { unit: patch.unit } : {}),
    city: current.city,
    postal_code: current.postal_code,
  };
}

/** "50 elm row" as an address line is written: "50 Elm Row". */
const capitalizeWords = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());

export function formatAddress(a: { line1: string; unit?: string | null; city: string; postal_code: string }): string {
  return `${a.line1}${a.unit ? `, ${a.unit}` : ''}, ${a.city} ${a.postal_code}`;
}

// ---------------------------------------------------------------------------- preferences

export interface PreferenceChanges {
  contact?: 'email' | 'sms' | 'phone';
  preferred_time?: 'mornings' | 'afternoons' | 'any';
  eco_products?: boolean;
  pets?: string;
}

const PETS =
  '(?:dogs?|cats?|pupp(?:y|ies)|kittens?|rabbits?|bunn(?:y|ies)|parrots?|birds?|hamsters?|guinea pigs?|pets?)';
const COUNT = '(?:a|an|one|two|three|four|five|\\d+|some|a couple of|new)';

/** "instead of texting", "rather than calls", "stop emailing": a channel named only to be given up. */
const CHANNEL_GIVEN_UP = new RegExp(
  String.raw`\b(?:instead of|rather than|than|not by|not|no more|stop|stop the|from|no need to|` +
    // "stop contacting me by email": the channel named is the one to stop
    String.raw`(?:stop|quit|no more|don'?t|do not)\s+(?:contacting|messaging|reaching|bugging|updating|` +
    String.raw`notifying|pinging)\s+(?:me|us)\s+(?:by|via|over|through))\s+(?:a\s+|the\s+)?` +
    String.raw`(?:texts?|texting|texted|sms|text messages?|phone calls?|calls?|calling|called|phoned|rang|` +
    String.raw`ring(?:ing)?(?: me)?|e-?mails?|e-?mailing|e-?mailed)\b`,
  'g',
);

/** A channel word: texts, email or calls, each in its spoken forms. */
const CHANNEL = String.raw`(texts?|texting|sms|text messages?|e-?mails?|e-?mailing|phone calls?|calls?|calling|phone)`;
const channelOf = (word: string): PreferenceChanges['contact'] =>
  /^(?:text|sms)/.test(word) ? 'sms' : /^e-?mail/.test(word) ? 'email' : 'phone';

/**
 * Forms that name a channel as a choice whatever else the message holds, read across the whole message
 * since some span a clause break ("text me, not email"): each with which of its channel words is wanted.
 */
const CHOICE_FORMS: [RegExp, 'first' | 'last'][] = [
  // "switch (me / my contact) from texts to email", "move me over to email": the last is wanted
  [
    new RegExp(
      String.raw`\b(?:switch|change|move|swap|put)\b[^.!?]{0,25}?\b(?:from (?:the )?${CHANNEL} )?(?:over )?to ` +
        String.raw`(?:the )?${CHANNEL}\b(?! (?:address|number|is|was)\b)`,
    ),
    'last',
  ],
  // "email me instead of texting", "call rather than text", "text me not email"
  [
    new RegExp(
      String.raw`\b(text|email|e-mail|call|ring|phone)(?: me)?(?: from now on| going forward)?,? ` +
        String.raw`(?:instead of|rather than|not) (?:a |the )?${CHANNEL}\b`,
    ),
    'first',
  ],
  // "texts are fine now", "email works better"
  [new RegExp(String.raw`\b${CHANNEL} (?:are|is|works?) (?:fine|ok|okay|best|better)\b`), 'first'],
  // "contact me by email", "reach me via text"
  [new RegExp(String.raw`\b(?:contact|reach|update|message) (?:me|us) (?:by|via|over|through) ${CHANNEL}\b`), 'first'],
];

/** Where one clause ends and the next begins: punctuation, a dash between words, or "and". */
const CLAUSE_BREAK = /[.!?;,()]|\s[-–—]\s|—|\band\b/;

/** Words that say a channel is wanted: a preference, a switch, "from now on", "texts are fine". */
const PREFERS_CHANNEL = new RegExp(
  String.raw`\b(?:prefer|preference|rather|better|instead|only|please use|contact me|reach me|get in touch|` +
    String.raw`best way|from now on|going forward)\b|` +
    String.raw`\bswitch(?:ed|ing)? (?:me |us |my contact(?: preference)? )?(?:over )?` +
    String.raw`(?:from (?:texts?|sms|e-?mails?|calls?) )?to (?:texts?|sms|e-?mails?|calls?|phone)\b|` +
    // "number's … now. text me on it": the new number, and how to use it.
    String.raw`\b(?:text|txt|call|ring) me (?:on|at) (?:it|this|that|this one|the new (?:one|number))\b|` +
    String.raw`\b(?:texts?|sms|e-?mails?|calls?) (?:are|is) (?:fine|ok|okay|better)\b`,
);

/** "so that you text her rather than ring": how we should reach someone else, not them. */
const SOMEONE_ELSES_CHANNEL =
  /\b(?:text|txt|call|ring|phone|e-?mail|contact|reach)(?:s|ed|ing)?\s+(?:her|him|them)\b(?![^.!?]*\b(?:me|us)\b)/;

/** "I'll just call the office instead" says how they will reach us, not how we should reach them. */
const theyWillContactUs = (whole: string): boolean =>
  (THEY_WILL_CONTACT_US.test(whole) ||
    /\b(?:i can|i'?d rather) (?:just )?(?:call|email|e-mail|text|ring|phone)\b/.test(whole)) &&
  !/\b(?:contact|text|call|reach|email|e-mail) me\b|\bprefer/.test(whole);

/** Something done over a channel ("booked it by phone", "paid over the phone"). */
const DONE_BY = new RegExp(
  String.raw`\b(?:booked|paid|scheduled|arranged|ordered|sent|cancell?ed|confirmed|did|made|done|called|rang)\b` +
    String.raw`[^.!?]{0,20}?\b(?:by|via|over)(?: the)? (?:texts?|sms|e-?mail|phone)\b`,
);

/** The channel one clause asks us to reach them by, if it asks for one. */
function clauseChannel(clause: string): PreferenceChanges['contact'] | undefined {
  if (!PREFERS_CHANNEL.test(clause) && !/\b(by|via|over) (text|sms|email|e-mail|phone)\b/.test(clause))
    return undefined;
  // "my husband already booked it by phone": how something was done, not how to reach them.
  if (!PREFERS_CHANNEL.test(clause) && DONE_BY.test(clause)) return undefined;
  // "email me instead of texting": the channel given up is not the one wanted.
  const wanted = clause.replace(CHANNEL_GIVEN_UP, ' ');
  // "i hardly read my texts, can it come by email?": the channel asked for is the one said "by".
  const by = /\b(?:by|via|over|through) (texts?|sms|text messages?|e-?mails?|phone calls?|calls?|phone)\b/.exec(wanted);
  const asked = by ? by[1]! : wanted;
  if (/\b(texts?|sms|text messages?|texting|texted me)\b/.test(asked)) return 'sms';
  if (/\b(e-?mails?|e-?mailed me)\b/.test(asked) && !/@/.test(clause)) return 'email';
  // "i'd rather you rang me": the channel in the past tense, as a wish
  const phoned = /\b(phone calls?|calls?|(?:ring|rang|rung|call|called|phoned) me|phone)\b/;
  if (phoned.test(asked) && !/\d{3}/.test(clause)) return 'phone';
  return undefined;
}

/**
 * The channel a message asks us to reach them by. Clause by clause first: an address or a number elsewhere in
 * the message ("new email x@y, and email me from now on") does not hide the channel asked for in its own
 * clause. Then the choice forms over the whole message, for a choice no clause reads alone ("text me, not
 * email"). Never when the message says how they will reach us.
 */
function contactChannel(t: string): PreferenceChanges['contact'] {
  if (theyWillContactUs(t) || SOMEONE_ELSES_CHANNEL.test(t)) return undefined;
  for (const clause of t.split(CLAUSE_BREAK)) {
    const channel = clauseChannel(clause);
    if (channel) return channel;
  }
  for (const [re, pick] of CHOICE_FORMS) {
    const words = re
      .exec(t)
      ?.slice(1)
      .filter((w): w is string => Boolean(w));
    if (words?.length) return channelOf(pick === 'last' ? words.at(-1)! : words[0]!);
  }
  return undefined;
}

/** "stop texting me", "no more calls please", "stop contacting me by email": a channel to stop using. */
const STOP_CHANNEL = new RegExp(
  String.raw`\b(?:stop|quit|no more|don'?t|do not)\s+(?:(?:contacting|messaging|reaching|bugging|updating|` +
    String.raw`notifying|pinging)\s+(?:me|us)\s+(?:by|via|over|through)\s+(?:the\s+)?)?` +
    String.raw`(texts?|texting|sms|text messages?|phone calls?|calls?|calling|ringing|e-?mails?|e-?mailing)\b`,
);

/** "texts just aren't working for me": a channel said not to work for them. */
const CHANNEL_NOT_WORKING = new RegExp(
  String.raw`\b(texts?|sms|text messages?|phone calls?|calls?|e-?mails?)\s+(?:just\s+|really\s+)?` +
    String.raw`(?:aren'?t|isn'?t|are not|is not|don'?t|doesn'?t|do not|does not)\s+work(?:ing)?\b`,
);

/** The channel a message asks us to stop using, when it names one (what to use instead is another question). */
export function channelStopped(text: string): NonNullable<PreferenceChanges['contact']> | undefined {
  const t = normalize(text);
  const m = STOP_CHANNEL.exec(t) ?? CHANNEL_NOT_WORKING.exec(t);
  if (!m) return undefined;
  return /^(?:text|sms)/.test(m[1]!) ? 'sms' : /^e-?mail/.test(m[1]!) ? 'email' : 'phone';
}

const CHANNEL_OF: [RegExp, NonNullable<PreferenceChanges['contact']>][] = [
  [/^(?:texts?|sms|text messages?)$/, 'sms'],
  [/^e-?mails?$/, 'email'],
  [/^(?:phone calls?|calls?|phone)$/, 'phone'],
];

/**
 * The contact channels a message asks for ("to phone calls", "by email"), the ones given up left
 * out: two different ones ("switch me to calls, but keep the reminders by email") contradict each
 * other, since one preference covers every message we send.
 */
export function channelsAskedFor(text: string): Set<NonNullable<PreferenceChanges['contact']>> {
  const wanted = normalize(text).replace(CHANNEL_GIVEN_UP, ' ');
  const out = new Set<NonNullable<PreferenceChanges['contact']>>();
  const said = /\b(?:by|via|over|through|to) (texts?|sms|text messages?|e-?mails?|phone calls?|calls?|phone)\b/g;
  for (const m of wanted.matchAll(said)) {
    const channel = CHANNEL_OF.find(([re]) => re.test(m[1]!))?.[1];
    if (channel) out.add(channel);
  }
  return out;
}

const PERIOD = '(mornings?|afternoons?)';
/** "afternoons better", "mornings are easier": the part of the day said to suit. */
const PERIOD_PRAISED = new RegExp(
  String.raw`\b${PERIOD},?\s+(?:(?:are|r|is|would be|work|works|suit me)\s+)?` +
    String.raw`(?:better|best|easier|preferable|ideal)\b|` +
    String.raw`\b(?:better|best|easier)\s+(?:in the\s+)?${PERIOD}\b|` +
    // "i can only do afternoons now"
    String.raw`\b(?:can|could) only do ${PERIOD}\b|` +
    // "i'd rather have mornings from now on not afternoons"
    String.raw`\b(?:rather|prefer)(?: to)?(?: have| do| get)?\s+(?:the\s+)?${PERIOD}\b`,
);
/** "mornings r hard now", "mornings don't work anymore": the part of the day said not to. */
const PERIOD_PANNED = new RegExp(
  String.raw`\b${PERIOD}\s+(?:(?:are|r|is)\s+(?:hard|tough|difficult|no good|bad|tricky|impossible|a no[- ]?go|out)|` +
    String.raw`(?:don'?t|dont|do not) work)\b`,
);

/** The part of the day a message says suits, or the other one when it only says which does not. */
function periodPreferred(t: string): PreferenceChanges['preferred_time'] | undefined {
  const praised = PERIOD_PRAISED.exec(t);
  const word = praised?.[1] ?? praised?.[2] ?? praised?.[3] ?? praised?.[4];
  if (word) return word.startsWith('morning') ? 'mornings' : 'afternoons';
  const panned = PERIOD_PANNED.exec(t)?.[1];
  if (panned) return panned.startsWith('morning') ? 'afternoons' : 'mornings';
  return undefined;
}

export function extractPreferences(text: string): PreferenceChanges {
  const t = normalize(text);
  const out: PreferenceChanges = {};
  const negated = (re: RegExp) =>
    new RegExp(`\\b(?:don'?t|dont|do not|doesn'?t|no|stop|no longer|never|not)\\b[^.!?]{0,30}(?:${re.source})`).test(t);

  // Eco products.
  const eco = new RegExp(
    String.raw`\b(eco(?:[- ]?friendly)?|green|natural|non[- ]?toxic|environmentally friendly|fragrance[- ]free|` +
      String.raw`chemical[- ]free|plant[- ]based|biodegradable|organic)\b[^.!?]{0,25}\b` +
      String.raw`(products?|cleaners?|supplies|cleaning)\b|\beco\b`,
  );
  // "the eco products just don't cut it, go back to normal ones": given up, said after the products.
  const ecoGivenUp = new RegExp(
    String.raw`\beco\b[^.!?]{0,30}\b(?:don'?t|doesn'?t|do not|does not|aren'?t|isn'?t) (?:work|cut|clean|do)|` +
      String.raw`\b(?:go|switch|change) back to (?:the )?(?:normal|regular|standard|usual|old)\b`,
  );
  if (eco.test(t)) out.eco_products = !negated(/\beco|green|natural|plant[- ]based|organic/) && !ecoGivenUp.test(t);
  else if (/\bno (?:harsh )?chemicals\b/.test(t)) out.eco_products = true;

  const contact = contactChannel(t);
  if (contact) out.contact = contact;

  // Preferred time of day for visits (a standing preference, not a booking time).
  const period = periodPreferred(t);
  if (period) out.preferred_time = period;
  else if (
    /\b(prefer|usually|generally|always|best for (?:me|us)|works? best|better for (?:me|us)|suits? (?:me|us))\b/.test(t)
  ) {
    if (/\bmornings?\b/.test(t)) out.preferred_time = 'mornings';
    else if (/\bafternoons?\b/.test(t)) out.preferred_time = 'afternoons';
    else if (/\b(any ?time|anytime|whenever|no preference)\b/.test(t)) out.preferred_time = 'any';
  }

  // Pets.
  // "2 cats and a dog": every animal of the list, not the first.
  const list = `${COUNT}\\s+(?:[a-z]+\\s+)?${PETS}(?:\\s*(?:,|and|&|\\+)\\s*${COUNT}\\s+(?:[a-z]+\\s+)?${PETS})*`;
  const pets =
    // "we adopted a puppy so its 2 cats and a dog now": the total after the news is what goes on file.
    new RegExp(
      `\\b(?:it'?s|its|it is|that'?s|that is|so|which makes|making)\\s+(${list})\\s+` +
        '(?:now|in total|total|altogether)\\b',
    ).exec(t) ??
    // "my cat is now two cats": what the pets are now, said of the one there was.
    new RegExp(`\\b(?:is|are) now\\s+(${list})\\b`).exec(t) ??
    new RegExp(
      `\\b(?:we have|we've got|we got|i have|i've got|i got|there's|there is|there are|adopted|new|up to)\\b` +
        `[^.!?]*?\\b(${list})\\b`,
    ).exec(t);
  if (pets) out.pets = clip(pets[1]!.replace(/^new\s+/, 'a '), 200);
  else if (/\bno (?:more )?pets\b|\bno longer have (?:a |any )?pets?\b/.test(t)) out.pets = 'none';
  return out;
}

// ------------------------------------------------------------------------------ name change

/** Up to four words of a name, typed capitalised or not ("ann smith-jones" in chat). */
const NAME = /^([A-Za-z][A-Za-z'’-]*(?:\s+[A-Za-z][A-Za-z'’-]*){0,3})/;
/** Words that end a name typed in lower case ("name is now ann lee and my email is…"). */
const AFTER_NAME = new Set(
  'and now please pls plz thanks thx so but btw also from on for my is its it at in to with the a an'.split(' '),
);
const NAME_LEADS = [
  // "change my name on here to …", "update the name on my acct to …"
  new RegExp(
    String.raw`\b(?:change|update|correct) (?:my|the) name ` +
      String.raw`(?:(?:on|in) (?:here|(?:my|the) (?:account|acct|file|record|profile)) )?to\s+`,
    'i',
  ),
  /\bmy (?:new|legal|married) name is\s+/i,
  /\b(?:my )?name(?:'s| is) now\s+/i,
  /\bname should (?:be|read)\s+/i,
  /\bmy name is\s+(?=[^.!?,]*\bnow\b|[^.!?]*\b(?:married|changed my name|name change)\b)/i,
  // "got married so im Ann Lee-Stone now", "… so its sophie okoye now": the occasion says the words after are a name.
  new RegExp(
    String.raw`\b(?:got married|married|divorced|changed my name|took (?:his|her|their) name)\b[^.?]{0,28}?` +
      String.raw`\b(?:i'?m|i am|it'?s|it is)\s+`,
    'i',
  ),
  // "its Ann Lee-Stone now": a capitalised full name, said to be the one from now on.
  /\b(?:[Ii]t'?s|[Ii]'?m|[Ii] am)\s+(?=[A-Z][a-z'’]+(?:[ -][A-Z][a-z'’]+)+,? now\b)/,
];

/** A new name the customer asks for ("change my name to Ann Lopez", "my name is Ann Lopez now"). */
export function extractNameChange(text: string): string | undefined {
  for (const lead of NAME_LEADS) {
    const m = lead.exec(text);
    if (!m) continue;
    const words = NAME.exec(text.slice(m.index + m[0].length))?.[1]?.split(/\s+/) ?? [];
    const end = words.findIndex((w) => AFTER_NAME.has(w.toLowerCase()));
    const name = (end < 0 ? words : words.slice(0, end)).join(' ');
    if (!name) continue;
    // Typed all in lower case: the record gets it capitalised ("ann smith-jones" → "Ann Smith-Jones").
    return name === name.toLowerCase() ? name.replace(/(^|[\s'’-])([a-z])/g, (_, p, c) => p + c.toUpperCase()) : name;
  }
  return undefined;
}

// --------------------------------------------------------------------------- ticket triage

export interface ProblemTriage {
  category: TicketCategory;
  priority: TicketPriority;
  label: string;
}

const SAFETY = new RegExp(
  String.raw`\b(` +
    [
      String.raw`gas smell|smell(?:s)? (?:of )?gas|sparks?|sparking|smoke|smoking|fire|burning (?:\w+ )?smell|` +
        String.raw`smell(?:s|ing)? (?:of |like )?(?:burning|something burning|melting)`,
      String.raw`electric(?:al)? shock|shocked|exposed wires?|injur\w*|hurt|bleeding`,
      'carbon monoxide|unsafe|dangerous|emergency',
    ].join('|') +
    String.raw`)\b`,
);
// "water is coming out from under the sink", "it's pooling on the floor": water where it should not be.
const WATER = new RegExp(
  String.raw`\b(leak\w*|flood\w*|water(?: is|'s| keeps)? (?:everywhere|all over|pouring|gushing|spraying|coming|` +
    String.raw`seeping|dripping through)|burst|pouring|gushing|pooling|puddl\w*|overflow\w*)\b`,
);
const ACTIVE =
  /\b(still|right now|currently|won't stop|keeps?|getting worse|everywhere|pouring|gushing|spreading|as we speak)\b/;
/** "the leak stopped by itself", "it's not leaking anymore": water that is over, no problem to report now. */
const WATER_OVER = new RegExp(
  String.raw`\b(?:leak\w*|drip\w*|water|it)\b[^.!?]{0,24}?\b(?:stopped|has stopped|fixed itself|dried up|` +
    String.raw`(?:isn'?t|is not|not|no longer) (?:leaking|dripping)(?: anymore)?|went away)\b`,
);
const DAMAGE = new RegExp(
  String.raw`\b(` +
    [
      // "scratch that", "scratch what i said": taking words back, not a scratch on anything.
      String.raw`broke|broken|break|smashed|shattered|cracked|` +
        String.raw`scratch(?!\s+(?:that|this|what|my (?:last|earlier|previous))\b)\w*`,
      // "dent", "dented", "dents", never "dentist" or "accident".
      String.raw`stain\w*|damag\w*|ruin\w*|dent(?:s|ed)?|chipped|spilled|knocked over|hole in|bleach\w*|` +
        String.raw`scuff\w*|tore|torn`,
    ].join('|') +
    String.raw`)\b`,
);
const MISSED = new RegExp(
  String.raw`\b(` +
    [
      'no ?one (?:showed|came|turned up|arrived)|nobody (?:showed|came|turned up|arrived)',
      "didn'?t (?:show|come|turn up|arrive)|did not (?:show|come|turn up|arrive)",
      'never (?:showed|came|turned up|arrived)|no[- ]show',
      'missed (?:my |our |the )?(?:appointment|visit|booking|cleaning)',
      "stood (?:me|us) up|hasn'?t (?:shown|arrived|come)",
      // "still waiting to be approved" is a request in review, not a visit that never came.
      '(?:still|been) waiting(?! (?:to be |for (?:the |an? |your )?)(?:approv|confirm|review|manager|team))',
    ].join('|') +
    String.raw`)\b`,
);
const LATE = /\b(late|running behind|delayed)\b/;
/** A charge disputed: twice, too much, or for something the customer says was not owed. */
const BILLING_DISPUTE = new RegExp(
  String.raw`\b(` +
    [
      String.raw`double[- ]charged|charged (?:me )?twice|overcharg\w*|wrong (?:amount|charge)|` +
        String.raw`two (?:separate )?(?:charges|payments)|(?:hit|charged|billed) twice`,
      'incorrect (?:charge|amount|bill)|extra charge',
      '(?:i )?(?:want|need|would like|demand|request) (?:a |my (?:money|deposit) back|a full )?refund',
      String.raw`(?:charged|billed) (?:me |us )?(?:\$[\d.,]+ )?for (?:a |an |the )?[^.!?]*\bbut\b`,
    ].join('|') +
    String.raw`)\b`,
);
const BILLING = new RegExp(
  String.raw`\b(` +
    [
      String.raw`double[- ]charged|charged (?:me )?twice|charged two times|overcharg\w*|over-charg\w*`,
      'wrong (?:amount|charge|price)|extra charge|incorrect (?:charge|amount|bill)',
      'billing|billed|refund|charged|charge on my card|invoice|gift ?card',
      BILLING_DISPUTE.source,
    ].join('|') +
    String.raw`)\b`,
);
const TECHNICAL = new RegExp(
  String.raw`\b(` +
    [
      "not working|stopped working|doesn'?t work|does not work|won'?t (?:turn on|come on|connect|work|start|heat|cool)",
      "isn'?t working|not connecting|can'?t connect|wi-?fi|offline|error",
      String.raw`wobbl\w*|not heating|not cooling|blank screen|fell (?:down|off)|came loose|loose|` +
        String.raw`(?:screen|display) (?:has |is )?(?:gone|went|going) (?:black|blank|dead)`,
      // a fault one hears: "making a grinding noise", "keeps buzzing"
      String.raw`(?:making|makes|made) (?:a |an |this |that )?(?:\w+ )?(?:noise|sound)|grinding|rattl\w*|buzzing`,
    ].join('|') +
    String.raw`)\b`,
);
/** Not said of themselves: "i forgot", "we totally forgot". */
const NOT_FIRST_PERSON =
  String.raw`(?<!\b(?:i|we)(?:'ve|'d|'m| ` +
  String.raw`(?:just|totally|completely|must have|had|have|kinda|probably))? )`;
const COMPLAINT = new RegExp(
  String.raw`\b(` +
    [
      // "i forgot to put it in my calendar": the customer's own slip, not something we failed to do.
      String.raw`skipped|${NOT_FIRST_PERSON}forgot (?:to|the)|left (?:it |the \w+ )?(?:dirty|undone|a mess)`,
      "didn'?t clean|did not clean|wasn'?t cleaned|not cleaned",
      // "sets my allergies off something awful": how much, not a verdict on us.
      String.raw`rude|unprofessional|unhappy|disappoint\w*|(?<!something )(?:terrible|awful|horrible)`,
      'poor (?:job|work|service)|bad (?:job|service)|sloppy|missed (?:spots?|areas?|a spot)',
      String.raw`still dirty|not clean|wasn'?t clean|filthy|complain\w*`,
      "(?:is|was|that'?s|which is)(?:n'?t| not) ok(?:ay)?",
      String.raw`(?:missed|skipped|forgot|never did|didn'?t do) (?:the |my |our )?(?:whole |entire )?(?:\w+ )?` +
        '(?:bathroom|kitchen|bedroom|room|floors?|upstairs|downstairs|windows?|oven|fridge)',
      'dissatisfied|not satisfied|not happy|upset|angry|furious|unacceptable',
    ].join('|') +
    String.raw`)\b`,
);
const EXPLICIT_TICKET = new RegExp(
  [
    String.raw`\b(open|create|file|raise|log|submit|make|start) (?:a |an )?(?:support |new )?` +
      String.raw`(?:ticket|case|complaint|claim)\b`,
    String.raw`\b(?:speak|talk) (?:to|with) (?:a |an |someone|somebody|a real |the )?` +
      String.raw`(?:human|person|manager|someone|somebody|agent|representative|supervisor)\b`,
    String.raw`\bescalat\w*\b`,
    String.raw`\bwarranty claim\b`,
  ].join('|'),
);

/** A visit of ours in the past: the people who came, or the visit itself with when it was. */
const PAST_VISIT = new RegExp(
  [
    String.raw`\b(?:the|your|our) (?:cleaners?|handyman|technician|tech|crew|guy|team|installer|person)\b`,
    String.raw`\b(?:deep clean|clean(?:ing)?|visit|repair|install\w*|job|appointment) ` +
      String.raw`(?:yesterday|today|this morning|last (?:week|time|\w+day))\b`,
    // "the last window clean": the kind of clean may stand between.
    String.raw`\b(?:last|yesterday'?s|today'?s|this morning'?s) (?:\w+ )?` +
      String.raw`(?:visit|clean(?:ing)?|deep clean|appointment|job)\b`,
    String.raw`\b(?:who|that) came\b`,
    // "saturdays clean - the upstairs bathroom wasn't touched": a visit named by the day it was.
    String.raw`\b(?:mon|tues|wednes|thurs|fri|satur|sun)day'?s (?:\w+ )?(?:visit|clean(?:ing)?|job|appointment)\b`,
  ].join('|'),
);
/** "can the handyman come thursday": the one asked to come is no visit that has been. */
const ASKED_TO_COME = /\b(?:can|could|would|will|pls|please|if) (?:the|your) (?:\w+ )?(?:come|pop|swing|stop|do)\b/g;
const pastVisit = (t: string): boolean => PAST_VISIT.test(t.replace(ASKED_TO_COME, ' '));

/** Work not done, or done badly. */
const WORK_NOT_DONE = new RegExp(
  [
    String.raw`\b(?:didn'?t|did not|never|wasn'?t|weren'?t|not even|hasn'?t|haven'?t|hadn'?t) (?:\w+ ){0,2}` +
      String.raw`(?:finish\w*|done|do|empt\w*|clean\w*|touch\w*|wip\w*|vacuum\w*|mop\w*|dust\w*|fix\w*|hang\w*|` +
      String.raw`complet\w*|come back|turn\w* up)\b`,
    String.raw`\bleft (?:\w+ ){0,2}(?:streaks?|smears?|marks?|dust|dirt|crumbs|hair|a mess|it (?:dirty|half))\b`,
    String.raw`\b(?:streaky|smeared|half[- ]done|unfinished|rushed|a joke)\b`,
  ].join('|'),
);

/** "The cleaner last friday left streaks…", "the oven wasn't even touched": a complaint about a past visit. */
export function complainsAboutVisit(text: string): boolean {
  const t = normalize(text);
  return PAST_VISIT.test(t) && WORK_NOT_DONE.test(t);
}

/**
 * "tomorrow at 2 doesn't work anymore", "that time won't work for me": a time that doesn't suit them,
 * which a move answers, not a fault of anything.
 */
const TIME_DOESNT_SUIT = new RegExp(
  String.raw`\b(?:(?:at )?\d{1,2}(?::\d{2})? ?(?:am|pm)?|noon|today|tonight|tomorrow|the \d{1,2}(?:st|nd|rd|th)|` +
    // "one of my saturdays won't work any more": a visit's day.
    String.raw`(?:mon|tues|wednes|thurs|fri|satur|sun)days?|(?:this|that|the) (?:time|day|date|slot)|` +
    String.raw`(?:morning|afternoon|evening)s?)\s+(?:no longer works|(?:doesn'?t|does not|won'?t|will not|` +
    String.raw`isn'?t going to|is not going to|can'?t) work)\b|` +
    // "the wall repair on the 16th doesnt work for me anymore", "the current way just isn't working for me": what
    // suits someone, not a thing that broke.
    String.raw`\b(?:doesn'?t|does not|won'?t|will not|no longer|isn'?t|is not|not) (?:works?|working) for (?:me|us)\b`,
  'g',
);
/**
 * "the fan came damaged in the box": a thing they bought that arrived broken, before any work of ours; the
 * reason for a change, not damage to report.
 */
const ARRIVED_DAMAGED = new RegExp(
  String.raw`\b(?:came|arrived|was delivered|got delivered|turned up)\s+(?:all\s+)?` +
    String.raw`(?:damaged|broken|cracked|smashed|dented)(?:\s+(?:in|inside) the (?:box|packaging|post|mail))?`,
  'g',
);
/**
 * "forgot to tip my cleaner", "i forgot the code": what the customer forgot themselves (said of "i" or "we",
 * or with no subject at all, which in a chat message is the writer), not work we left undone.
 */
const OWN_OMISSION = /(?:^|[.!?;]\s*|\b(?:i|we)(?:'ve| have| had| just| totally| completely)?\s)forgot\b/g;
/**
 * "a credit from when the guy was late": a past problem named as where something they have came from, as the
 * background of a question, not reported now.
 */
const BACKGROUND = /\b(?:from|back) when\b[^,.!?;]*/g;
const FELL = /\b(?:fell|fallen|came (?:down|off)|collapsed|pulled (?:out|away) from the wall)\b/;

/**
 * "nobody hurt", "no one was injured", "not an emergency": harm ruled out; an "emergency contact" is a person to
 * call, no emergency.
 */
const NO_HARM = new RegExp(
  String.raw`\b(?:nobody|no one|noone|no-one|not|nothing)\s+(?:was\s+|got\s+|is\s+|were\s+)?(?:hurt|injured)\b|` +
    String.raw`\bno injur\w*|\bemergency contacts?\b|\b(?:not|isn'?t|is not|no)\s+(?:an?\s+)?(?:real\s+)?emergency\b`,
  'g',
);
/**
 * "tightened our wobbly chair", "fixed the leaky tap": the fault names what was mended, praise not a report
 * (the same thing failing again is still one: "… and its loose again").
 */
const MENDED_FAULT = new RegExp(
  String.raw`\b(?:fixed|tightened|sorted|repaired|mended|secured|adjusted|oiled|stopped)\s+(?:up\s+|out\s+)?` +
    // The fault as an attribute of the thing ("our old wobbly chair"), never said of it ("fixed is dripping again").
    String.raw`(?:(?:the|our|my|a|that|those|some)\s+)?` +
    String.raw`(?:(?!(?:is|was|are|were|its|it'?s|keeps?|still|now)\b)\w+\s+)?` +
    String.raw`(?:wobbl\w*|loose|leak\w*|drip\w*|squeak\w*|rattl\w*|broken|stick\w*|creak\w*)\s+(?!again\b)\w+`,
  'g',
);
/** "new number 555…, the old is not working more": the value being replaced, the reason for the change. */
const OLD_VALUE_DEAD = new RegExp(
  String.raw`\bold(?: (?:one|number|phone|mobile|cell|email|e-mail|address|sim))? (?:is |was )?` +
    String.raw`(?:not working|isn'?t working|doesn'?t work|does not work|no longer works|not work|dead|disconnected)` +
    String.raw`(?: (?:more|any ?more))?`,
  'g',
);
/**
 * "the complaint i phoned in abt the upstairs bathroom got sorted, someone came back n redid it": a problem told as
 * settled, up to the end of its sentence (or an emoji typed as one), unless it has come back.
 */
const SETTLED = new RegExp(
  String.raw`[^.!?\p{Extended_Pictographic}]*\b(?:got|was|been|is|are|were|all|now) ` +
    String.raw`(?:sorted|fixed|resolved|taken care of|dealt with)\b(?![^.!?]*\bagain\b)` +
    String.raw`[^.!?\p{Extended_Pictographic}]*`,
  'gu',
);
const sansWhatIsNoFault = (t: string) =>
  t
    .replace(SETTLED, ' ')
    .replace(OLD_VALUE_DEAD, ' ')
    .replace(MENDED_FAULT, ' ')
    .replace(TIME_DOESNT_SUIT, ' ')
    .replace(ARRIVED_DAMAGED, ' ')
    .replace(OWN_OMISSION, ' ')
    .replace(BACKGROUND, ' ')
    .replace(NO_HARM, ' ');

/** Whether the text reports a problem (something went wrong) as opposed to asking about one. */
export function reportsProblem(text: string): boolean {
  const t = sansWhatIsNoFault(normalize(text));
  return (
    SAFETY.test(t) ||
    (WATER.test(t) &&
      !WATER_OVER.test(t) &&
      !/\b(leaky|leaking|dripping) (?:kitchen |bathroom |bath |sink )?(?:faucet|tap)\b/.test(t)) ||
    DAMAGE.test(t) ||
    MISSED.test(t) ||
    new RegExp(
      String.raw`\b(?:technician|tech|cleaners?|crew|guy|handyman|plumber|installer|they|he|she|` +
        String.raw`your (?:guy|person|team)) ` +
        String.raw`(?:is|was|are|were|showed up|arrived|came|turned up) (?:[\w-]+ ){0,3}late\b`,
    ).test(t) ||
    BILLING_DISPUTE.test(t) ||
    (TECHNICAL.test(t) && !/\?\s*$/.test(t)) ||
    WARRANTY.test(t) ||
    COMPLAINT.test(t) ||
    complainsAboutVisit(t)
  );
}

/** Something we fixed or installed has failed again: a guarantee claim, not a new paid job. */
const WARRANTY = new RegExp(
  String.raw`\b(?:you|you guys|your (?:guy|tech\w*|team|crew|person|people|handyman|installers?|plumber|` +
    String.raw`cleaners?)|we) ` +
    String.raw`(?:just |recently )?` +
    String.raw`(?:fixed|repaired|installed|mounted|put up|put in|patched|replaced|hung)\b` +
    String.raw`[^.!?]*\b(?:again|stopped working|not working|broke\w*|loose|leak\w*|drip\w*|wobbl\w*|fell|falling|` +
    String.raw`coming (?:off|down|away|loose)|came (?:off|down|away)|crooked|uneven|not level|off[- ]cent(?:er|re)|` +
    // "already pulling out of the wall", "screws are half out"
    String.raw`pull\w* (?:out|away)|(?:coming|came|falling|fell) apart|popp\w* out|half out|` +
    String.raw`work\w* (?:itself )?(?:loose|free))\b`,
);
/** Damage we caused ("your guy scratched…", "the cleaner broke…"). */
const CAUSED_BY_US = new RegExp(
  [
    String.raw`\b(?:you|u|(?:your|ur) (?:guy|tech\w*|team|crew|cleaners?|person|people|staff)|` +
      String.raw`the (?:cleaners?|technician|tech|crew|installer)|they|he|she) (?:\w+ ){0,2}` +
      '(?:broke|damaged|scratched|dented|cracked|stained|ruined|smashed|chipped|spilled|knocked|tore|' +
      String.raw`scuffed|bleached)\b`,
    String.raw`\b(?:during|after) (?:the|your|our|my|today's|yesterday's) ` +
      String.raw`(?:visit|cleaning|clean|repair|appointment|install\w*)\b`,
    String.raw`\b(?:since|after) (?:you|your \w+|the \w+) (?:came|left|visited|were here|was here)\b`,
    // "cleaner on friday was moving coffee table and glass top is now cracked": done while working for us.
    String.raw`\b(?:cleaners?|technician|tech|crew|handyman|installer|your (?:guy|team))\b[^.!?]{0,30}\b` +
      String.raw`(?:was|were) (?:moving|lifting|carrying|cleaning|using|shifting)\b`,
  ].join('|'),
);

/**
 * Damage words that describe the job rather than a complaint: "patch a hole in my wall" when
 * nothing says we caused it and nothing else in the message is a problem.
 */
export function damageIsTheJob(text: string): boolean {
  const t = normalize(text);
  return DAMAGE.test(t) && !CAUSED_BY_US.test(t) && !reportsProblem(t.replace(new RegExp(DAMAGE.source, 'g'), ' '));
}

/** A leak past what a repair visit is for: water spreading, pouring, through a ceiling, an emergency. */
const LEAK_EMERGENCY = new RegExp(
  String.raw`\b(?:everywhere|all over|pouring|gushing|spraying|flood\w*|burst|won'?t stop|ceiling|through the|` +
    String.raw`soak\w*|emergency|spreading|getting worse)\b`,
);

/**
 * A leak that describes the job ("my bathroom faucet is leaking, can someone come tuesday"): a drip
 * nobody ties to work of ours, with nothing spreading or urgent about it, is a repair to book.
 */
export function leakIsTheJob(text: string): boolean {
  const t = normalize(text);
  if (!WATER.test(t) || LEAK_EMERGENCY.test(t) || SAFETY.test(t)) return false;
  if (CAUSED_BY_US.test(t) || WARRANTY.test(t) || pastVisit(t)) return false;
  return !reportsProblem(t.replace(new RegExp(WATER.source, 'g'), ' '));
}

/**
 * A fault that describes the job ("a wobbly shelf", "the fan makes a grinding noise") when nothing
 * ties it to work of ours (we installed it, a past visit) and nothing else in the message is a problem.
 */
export function faultIsTheJob(text: string): boolean {
  const t = normalize(text);
  if (!TECHNICAL.test(t) || CAUSED_BY_US.test(t) || WARRANTY.test(t) || pastVisit(t)) return false;
  const rest = t.replace(new RegExp(TECHNICAL.source, 'g'), ' ').replace(new RegExp(DAMAGE.source, 'g'), ' ');
  return !reportsProblem(rest);
}

/** Dirt in the home: what a cleaning is booked for, or a complaint when it is left after ours. */
const DIRT = /\b(?:filthy|dirty|grimy|grubby|dusty|mucky|covered in (?:dust|dirt|grime|mud))\b/;

/**
 * Dirt that describes the job ("windows are filthy after the renovation dust, wednesday at 10"): dirt
 * nobody ties to our work, not left over after a visit ("still dirty", "dirty again"), is a cleaning to book.
 */
export function dirtIsTheJob(text: string): boolean {
  const t = normalize(text);
  if (!DIRT.test(t) || /\b(?:still|again|even after|refund\w*)\b/.test(t)) return false;
  // "they left the oven dirty": dirt someone left behind.
  if (new RegExp(String.raw`\b(?:left|leaving|leave)\s+(?:[\w']+\s+){0,3}?${DIRT.source}`).test(t)) return false;
  if (CAUSED_BY_US.test(t) || WARRANTY.test(t) || PAST_VISIT.test(t)) return false;
  return !reportsProblem(t.replace(new RegExp(DIRT.source, 'g'), ' '));
}

/**
 * "once you accept my warranty claim…", "if i file a complaint, how long…": a claim or ticket in a clause of
 * what happens after it (not "if you could open a ticket", a polite request).
 */
const SUPPOSED_CLAIM = new RegExp(
  String.raw`\b(?:once|after|when|if) (?:you|your team|the team|they|someone|somebody|i|we) ` +
    '(?!could|can|would|will|please|might)[^,.!?;]*',
  'g',
);

export function wantsTicket(text: string): boolean {
  return EXPLICIT_TICKET.test(normalize(text).replace(SUPPOSED_CLAIM, ' '));
}

const ESSENTIAL_OUT = new RegExp(
  String.raw`\b(?:no (?:heat|heating|hot water|power|electricity)|freezing|` +
    String.raw`(?:heat|heating|boiler|furnace|hot water) (?:won'?t|doesn'?t|isn'?t|is not|not|has stopped|stopped))\b`,
);
/** "honestly worried itll come down": a fear that the fault will hurt someone, which cannot wait either. */
const FEARED_HARM = new RegExp(
  String.raw`\b(?:worried|scared|afraid|concerned|terrified|nervous)\b[^.!?]*` +
    String.raw`\b(?:come down|come off|fall\w*|collaps\w*|drop on|land on|hurt|injur\w*|catch fire|electrocut\w*)\b`,
);
const VULNERABLE = /\b(?:baby|infant|newborn|toddler|\d+[- ]?(?:months?|weeks?)[- ]old|elderly|pregnant|disabled)\b/;

/**
 * "the drain is slow since your visit", "it's been rattling ever since the cleaners came": a state that began
 * with our work, a complaint about it. "since your visit is tomorrow" gives a reason and says nothing of a fault:
 * a state verb must come before "since".
 */
const SINCE_OUR_VISIT = new RegExp(
  String.raw`\b(?:is|are|was|were|'s|has been|have been|been|got|gotten|keeps?|kept|started|stopped)\b[^.!?]{0,60}?` +
    String.raw`\b(?:ever )?(?:since|after) (?:(?:your|the|our|last|yesterday'?s) (?:\w+ )?` +
    String.raw`(?:visit|clean(?:ing)?|repair|install\w*|appointment|job)\b|` +
    String.raw`(?:you|u|your (?:guy|tech\w*|team|crew|cleaners?|handyman|plumber)|` +
    String.raw`the (?:cleaners?|tech\w*|crew|handyman|plumber))` +
    String.raw` (?:guys )?(?:came|were here|was here|left|visited))`,
);

/** Category and priority: urgent for safety, water leaks and active damage; high for missed visits. */
export function triage(text: string): ProblemTriage {
  const t = sansWhatIsNoFault(normalize(text));
  const safety = SAFETY.test(t);
  const water = WATER.test(t);
  const active = ACTIVE.test(t);
  const damage = DAMAGE.test(t);
  if (safety) {
    const technical =
      !damage &&
      !water &&
      (TECHNICAL.test(t) ||
        /\b(install\w*|thermostat|fan|wir\w*|outlet|switch|appliance|repair\w*|fixed|mounted)\b/.test(t));
    return { category: technical ? 'technical' : 'damage', priority: 'urgent', label: 'Urgent safety issue' };
  }
  if (water) return { category: 'damage', priority: 'urgent', label: 'Water leak' };
  // Something we put up that came down (shelves, a mount) could have hurt someone: seen to soon, even if nobody was.
  if (damage)
    return {
      category: 'damage',
      priority: active ? 'urgent' : FELL.test(t) ? 'high' : 'normal',
      label: 'Damage report',
    };
  // A fault that leaves the home without heat, water or power, or with someone vulnerable in it, cannot wait.
  const pressing = ESSENTIAL_OUT.test(t) || VULNERABLE.test(t) || FEARED_HARM.test(t) ? 'high' : 'normal';
  if (WARRANTY.test(t)) return { category: 'technical', priority: pressing, label: 'Warranty claim' };
  if (MISSED.test(t)) return { category: 'scheduling', priority: 'high', label: 'Missed visit' };
  if (BILLING.test(t)) return { category: 'billing', priority: 'normal', label: 'Billing issue' };
  if (LATE.test(t)) return { category: 'scheduling', priority: 'high', label: 'Late technician' };
  if (TECHNICAL.test(t)) return { category: 'technical', priority: pressing, label: 'Technical issue' };
  if (COMPLAINT.test(t) || complainsAboutVisit(t) || SINCE_OUR_VISIT.test(t))
    return { category: 'complaint', priority: 'normal', label: 'Complaint' };
  if (/\b(cancel\w*|reschedul\w*|appointment|booking|visit)\b/.test(t))
    return { category: 'scheduling', priority: 'normal', label: 'Scheduling request' };
  return { category: 'general', priority: 'normal', label: 'Customer request' };
}

/** A subject line (≤150 chars) from the label and the customer's first sentence. */
export function ticketSubject(label: string, text: string): string {
  // A greeting on its own ("Hello.") is no subject: the first sentence that says something is.
  const sentences = splitSentences(text.replace(/\s+/g, ' ').trim())
    .map((x) => x.replace(/^(?:hi|hello|hey|good (?:morning|afternoon|evening))(?:\s+there)?[,!.\s]*/i, ''))
    .filter((x) => /[a-z0-9]/i.test(x));
  const body = (sentences[0] ?? text).replace(/[.!?]+$/, '');
  return clip(`${label}: ${capitalize(body)}`, 150);
}

// ------------------------------------------------------------------------------ visit notes

const NOTE_WORDS = new RegExp(
  String.raw`\b(dog|dogs|cat|cats|pet|pets|gate|code|buzzer|lockbox|key|keys|park|parking|doorman|concierge|` +
    String.raw`allerg\w*|fragrance|focus|please bring|ring|knock|side door|back door|stairs|elevator|lift)\b`,
  'i',
);

/** Sentences meant for the crew (access, pets, parking), for book_slot's notes. */
export function visitNotes(text: string): string | undefined {
  const parts = splitSentences(text)
    // "book … at 9am, we have a cat so …": the clause after the comma is for the crew.
    .flatMap((s) =>
      s.split(
        new RegExp(
          String.raw`\s*(?:;|\band also\b|, and (?=(?:the|our|my|we|there)\b)|` +
            String.raw`,\s*(?=(?:we|we've|we're|our|there's|there is|i have|i've|my)\b))\s*`,
          'i',
        ),
      ),
    )
    .filter((s) => NOTE_WORDS.test(s))
    .filter((s) => !/\b(book|schedule|reserve|e-?mail me|send me)\b/i.test(s));
  if (!parts.length) return undefined;
  return clip(parts.map((s) => s.trim().replace(/[.]+$/, '')).join('. '), 1000);
}

/** How the crew gets in and parks: what the staff notes on file are for. */
const ACCESS_WORDS = new RegExp(
  String.raw`\b(?:parking|park|lock ?box|gate|buzzer|intercom|key ?pad|keys?|alarm|concierge|doorman|` +
    String.raw`(?<!postal |zip |promo |discount |area )code)\b`,
  'i',
);
/** Words that say an access detail is new ("is 5521 now", "new key safe", "changed to", "no longer"). */
const NEWLY = /\b(?:new|now|changed|has changed|moved|no longer|anymore|instead|switched|from now on)\b/i;

/**
 * A new access detail said as a fact ("the gate code changed to 4490", "we park in bay 7 now"): it
 * belongs in the staff notes, as the customer's own words. Questions and booking requests are not such facts.
 */
export function extractAccessNote(text: string): string | undefined {
  // Lower-case chat ("… 0458. and visitor parking is …") ends sentences too, so split on any end mark.
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+|\s*(?:;|\s[-\u2013\u2014]\s|,\s*(?:and|also)\s+)\s*/i)
    .map((s) => s.trim().replace(/^(?:(?:and|also|plus|oh|btw|fyi|heads up|just so you know)[\s,:]+)+/i, ''));
  const asked = (s: string) => !/\?\s*$/.test(s) && !/\b(?:book|schedule|reserve|can you|could you|is it)\b/i.test(s);
  // A number, or where the thing is now ("lockbox moved to the back door (same code)").
  let parts = sentences
    .filter(
      (s) => ACCESS_WORDS.test(s) && NEWLY.test(s) && (/\d/.test(s) || /\b(?:moved to|now (?:at|on|by|in))\b/i.test(s)),
    )
    .filter(asked);
  // "the dog crate is in the garage now not the laundry room, can u update that": any detail of the home said to
  // have changed, with the record asked to follow it.
  if (!parts.length && UPDATE_THAT.test(text))
    parts = sentences
      .map((s) => s.replace(UPDATE_THAT_CLAUSE, '').trim())
      .filter((s) => NEWLY.test(s) && WHERE_NOW.test(s) && asked(s));
  if (!parts.length) return undefined;
  return clip(parts.map((s) => capitalize(s.replace(/[.,]+$/, ''))).join('. '), 1000);
}

/** "can u update that", "please note that": the record asked to follow a fact just said. */
const UPDATE_THAT =
  /\b(?:(?:can|could|would) (?:you|u) (?:please |pls )?|please |pls )(?:update|note|change) (?:that|it|this)\b/i;
const UPDATE_THAT_CLAUSE = new RegExp(String.raw`[,;]?\s*${UPDATE_THAT.source}[\s\S]*$`, 'i');
/** Where something is now: "is in the garage", "are under the sink now", "moved to the shed". */
const WHERE_NOW =
  /\b(?:is|are|'s|lives?|kept|moved)\s+(?:now\s+)?(?:in|on|at|by|under|behind|next to|to)\s+(?:the|my|our)\b/i;

/** "add a note to my file that …", "stick a note on my acct: …": what follows is the note's text. */
export const NOTE_REQUEST = new RegExp(
  String.raw`\b(?:add|put|leave|make|save|keep|stick|pop|jot|write) (?:a )?note(?: to| on| in)?(?: my| the)?` +
    String.raw`(?: account| acct| file| record| profile)?(?:\s*(?:that|saying|:|-))?\s+(.+)`,
  'i',
);

/** The message without a note's text: "add a note that the side gate latch is broken" reports nothing to us. */
export function withoutNoteText(text: string): string {
  const m = NOTE_REQUEST.exec(text);
  return m ? text.slice(0, m.index + m[0].length - m[1]!.length) : text;
}

/** "tell them to knock", "let the crew know to park in the driveway": an instruction for whoever comes. */
const CREW_TOLD = new RegExp(
  String.raw`\b(?:tell|let|ask|remind|warn)\s+(?:(?:the|your|ur|my)\s+)?` +
    String.raw`(?:(?:crew|cleaners?|techs?|technicians?|team|guys?|installers?|handyman|plumber|them|him|her)` +
    String.raw`(?:\s+know)?\s+(?:to|that|not to)|` +
    // "tell the crew the crates in the garage now": what follows the crew named is for them.
    String.raw`(?:crew|cleaners?|techs?|technicians?|installers?)(?:\s+know)?(?=\s+the\s+\w+)|` +
    // "tell whoever comes theres a new side gate": whoever it is, what follows is for them.
    String.raw`(?:whoever|anyone who|the (?:person|one) who)(?:'s| is)? (?:comes?|coming)` +
    String.raw`(?:\s+know)?(?:\s+that)?)\s+\S|` +
    // "pls note for the crew: park in bay 14"
    String.raw`\bnote for (?:the |your |ur )?(?:crew|cleaners?|techs?|technicians?|team|whoever comes)\s*[:,-]\s*\S`,
  'i',
);

// "is it weird to ask the tech to wear a mask": asked about, not told.
// "I'm going to ask him to move the plumbers": what the customer will say to someone, not an instruction for us.
const crewSentence = (text: string) =>
  text.split(/(?<=[.!?])\s+|\n+/).find((x) => {
    const told = CREW_TOLD.exec(x);
    return told && !OWN_TELLING.test(x.slice(0, told.index)) && !/\?\s*$/.test(x) && !isInformationQuestion(x);
  });
const OWN_TELLING = new RegExp(
  String.raw`\b(?:i'?m|im|i am|we'?re|we are) (?:going to|gonna|about to|planning to|trying to)\s*$|` +
    String.raw`\b(?:i'?ll|we'?ll|i will|we will|let me|i need to|i have to|i'?d|i would)\s*$`,
  'i',
);

/** The message without its instruction for the crew: "doorbell is broken so tell them to knock" reports nothing. */
export function withoutCrewInstruction(text: string): string {
  const sentence = crewSentence(text);
  return sentence ? text.replace(sentence, ' ') : text;
}

/**
 * The sentence of a message that tells the crew something for every visit ("oh and doorbell is broken so tell them
 * to knock"), as the note's words; undefined when none does or it asks a question.
 */
export function crewInstruction(text: string): string | undefined {
  const sentence = crewSentence(text);
  if (!sentence) return undefined;
  const said = sentence
    .replace(/^(?:(?:oh|and|also|plus|btw|fyi|pls|plz|please|so)[\s,:]+)+/i, '')
    .replace(/^(?:can|could|would|will) (?:you|u)(?: please| pls)?\s+/i, '')
    .replace(/^(?:(?:pls|plz|please)\s+)?(?:a )?note for (?:the |your |ur )?[a-z ]+?\s*[:,-]\s*/i, '')
    .replace(/[.!\s]+$/, '')
    .trim();
  return said.length >= 3 ? capitalize(said).slice(0, 1000) : undefined;
}

// ------------------------------------------------------------------------- someone else's record

const RELATIVES =
  '(?:neighbou?rs?|friends?|mom|mum|mother|dad|father|parents?|sister|brother|son|daughter|wife|husband|partner|' +
  'landlord|landlady|tenants?|colleague|co-?worker|boss|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|' +
  'room-?mate|flatmate|in-laws?)(?:-in-law)?';
const RECORD_WORDS =
  '(?:e-?mail|phone|number|address|account|bookings?|appointments?|cleaning|visit|details|record|info|profile|' +
  'house|place|home|apartment|flat)';
const NOT_A_NAME_WORDS =
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|' +
  'january|february|march|april|may|june|july|august|september|october|november|december|' +
  'christmas|thanksgiving|new|system|customer';

/** First words of names that are not people: the business, the places of its area, its services. */
function notANameWords(services: readonly { name: string }[]): Set<string> {
  const firstWord = (name: string) =>
    normalize(name)
      .split(/[^a-z0-9]+/)
      .find(Boolean) ?? '';
  return new Set([
    ...NOT_A_NAME_WORDS.split('|'),
    ...normalize(BUSINESS.shortName).split(/\s+/),
    ...placeNames().map(firstWord),
    ...services.map((s) => firstWord(s.name)),
  ]);
}

/**
 * "my neighbour … asked me to get her tv mount moved": someone else's visit or record, named by whose it is, so
 * even asking for its missing time would act for them. Someone the customer lives with (a partner, a child)
 * shares the customer's bookings, so only others count.
 */
export function theirVisit(text: string): string | undefined {
  const theirs = new RegExp(
    `\\b(?:my|our) (${RELATIVES})\\b[^.!?]{0,80}?\\b(?:(?:her|his|their)\\s+(?:[a-z]+\\s+){0,2}?` +
      '(?:bookings?|appointments?|visits?|cleaning|clean|repair|mount(?:ing)?|install\\w*|account|e-?mail|phone)|' +
      // "my neighbour … wants her windows done too, can you put her in for saturday": she would be the customer. (A
      // visit the customer books at a relative's home is theirs: "a clean at her place" is not caught here.)
      '(?:put|book|pencil|sign|fit) (?:her|him|them) (?:in|down|up)\\b|' +
      // "my landlord … has a cleaning with you on the 18th", "my neighbour … has your handyman coming"
      '(?:has|have|got) (?:a|an|your|the|one of your) (?:[a-z]+ ){0,2}?(?:bookings?|appointments?|visits?|cleaning|' +
      'clean|repair|handym[ae]n|cleaners?|techs?|technicians?|plumber|installers?|guy)\\b)',
  ).exec(normalize(text));
  return theirs && !/^(?:wife|husband|partner|son|daughter|kids?)$/.test(theirs[1]!) ? `your ${theirs[1]!}` : undefined;
}

/**
 * The customer asks about or for someone else's record: another customer id, "Ann Lee's
 * email", "my neighbour's phone", "for my mom", "does John Smith have". Returns how to name
 * them in the reply; undefined when the message is about the customer's own record.
 */
export function otherPerson(
  text: string,
  self: { id: string; name: string },
  services: readonly { name: string }[] = [],
): string | undefined {
  const id = [...text.matchAll(/\bcus_[a-z0-9]{3,24}\b/gi)].map((m) => m[0].toLowerCase()).find((x) => x !== self.id);
  if (id) return `another customer (${id})`;
  const mine = new Set(normalize(self.name).split(/\s+/));
  const notAName = notANameWords(services);
  const someoneElse = (name: string) => {
    const words = normalize(name).split(/\s+/);
    return !notAName.has(words[0]!) && !words.every((w) => mine.has(w));
  };
  const possessive = new RegExp(
    `\\b([A-Z][a-z]+(?:\\s+[A-Z][A-Za-z-]+)?)['’]s?\\s+(?:[a-z]+\\s+)?${RECORD_WORDS}\\b`,
    'g',
  );
  for (const m of text.matchAll(possessive)) if (someoneElse(m[1]!)) return m[1]!;
  const t = normalize(text);
  const relative =
    new RegExp(`\\b(?:my|our) (${RELATIVES})['’]?s?\\s+(?:[a-z]+\\s+)?${RECORD_WORDS}\\b`).exec(t) ??
    new RegExp(`\\b(?:for|of) (?:my|our) (${RELATIVES})\\b`).exec(t);
  if (relative) return `your ${relative[1]!}`;
  const theirs = theirVisit(text);
  if (theirs) return theirs;
  for (const m of text.matchAll(/\b(?:does|did|has|of|for|about)\s+([A-Z][a-z]+\s+[A-Z][A-Za-z-]+)\b/g))
    if (someoneElse(m[1]!)) return m[1]!;
  return undefined;
}
