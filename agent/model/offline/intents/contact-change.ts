import type { PlanContext } from '../../../plan-context.js';
import { describeChanges } from '../../../describe.js';
import { EXAMPLE_ADDRESS } from '../../../../schema/business/service-area.js';
import type { Offer, RecordWrite } from '../conversation.js';
import { CHANGE_CUE, PHONE_CUE, type Analysis } from '../analysis/analyze.js';
import type { Cues } from '../analysis/cues.js';
import { revisedAddress } from '../analysis/address-revision.js';
import { changeOf, sentenceAt, stanceOfMention, stanceOfValue, worthAsking } from '../analysis/evidence.js';
import {
  type AddressExtraction,
  type AddressPatch,
  applyAddressPatch,
  channelsAskedFor,
  channelStopped,
  crewInstruction,
  extractAccessNote,
  STREET_TYPE,
  extractAddressPatch,
  addressAnswer,
  completedEmail,
  extractAddress,
  digitsOf,
  extractEmails,
  spacedEmailPart,
  formatAddress,
  extractNameChange,
  extractPhones,
  extractPreferences,
  NOTE_REQUEST,
  incompletePhones,
  type PreferenceChanges,
  samePhone,
} from '../analysis/entities.js';
import { capitalize, normalize, splitSentences } from '../analysis/text.js';

export interface UpdatePlan {
  changes?: Record<string, unknown>;
  notes: string[];
  offer?: Offer;
  /** A value in the message was given as someone else's: refused, and nothing of theirs changed. */
  thirdParty?: true;
  /** Parts completed from the record once it is looked up (then `changes` wait for that too). */
  fromRecord?: Omit<RecordWrite, 'changes'>;
}

type Customer = NonNullable<PlanContext['customer']>;

/** What planUpdate collects field by field. */
interface Draft {
  changes: Record<string, unknown>;
  notes: string[];
  offer?: Offer;
  thirdParty: boolean;
  addressPatch?: AddressPatch;
}

const CHANNEL_LABEL = { email: 'email', sms: 'text messages', phone: 'phone calls' } as const;
const FIELD_LABEL = { email: 'email address', phone: 'phone number', address: 'address', name: 'name' } as const;
type Field = keyof typeof FIELD_LABEL;

/** A "yes" to our question proposes this change. */
const offerUpdate = (customer: Customer, field: Field, value: unknown): Offer => ({
  kind: 'propose',
  tool: 'update_customer',
  args: { customer_id: customer.id, changes: { [field]: value } },
});

/** A value for a field of the record: what is stored, how it reads in a reply, and where the message says it. */
interface Given {
  field: Field;
  value: unknown;
  shown: string;
  at: string;
}

/**
 * A value the message gives for a field, written only when the customer's own words ask for it
 * (analysis/evidence). Asked about or said by someone else: asked whether to change it; not decided
 * yet: left until they say so; supposed or ruled out: nothing.
 */
function gateValue(d: Draft, a: Analysis, customer: Customer, g: Given) {
  const stance = stanceOfValue(a.text, g.at);
  if (stance === 'request') {
    d.changes[g.field] = g.value;
  } else if (worthAsking(stance)) {
    d.notes.push(`Would you like me to update your ${FIELD_LABEL[g.field]} to ${g.shown}?`);
    d.offer = offerUpdate(customer, g.field, g.value);
  } else if (stance === 'hedged') {
    d.notes.push(
      `No problem, I haven't changed anything. Whenever you'd like your ${FIELD_LABEL[g.field]} changed to ` +
        `${g.shown}, just tell me and I will send the change for approval.`,
    );
  }
}

/** Words that make an address the one to use from here on, not for one email. */
const STANDING_DESTINATION = /\b(?:from now on|going forward|from here on(?: out)?|in (?:the )?future|for future)\b/;

/** A wish to keep a channel as it is ("i'd rather keep getting the text links"). */
const KEPT_CHANNEL = new RegExp(
  String.raw`\b(?:rather|prefer to|like to|want to|wanna|happy to|just|please) keep (?:on )?` +
    String.raw`(?:getting|receiving) (?:the |my |your )?` +
    String.raw`((?:text (?:messages?|links?)|texts?|e-?mails?|(?:phone )?calls?))\b`,
);

/** Contact details and preferences the message changes, or the question to ask about them. */
export function planUpdate(a: Analysis, customer: Customer, bookingInMessage: boolean): UpdatePlan {
  const d: Draft = { changes: {}, notes: [], thirdParty: false };
  // "I already emailed help@… with my new number and someone replied that it's sorted": done elsewhere, told.
  const t = normalize(a.text);
  if (SORTED_ELSEWHERE.test(t) && !/\b(?:can|could|would) you\b|\b(?:please|pls|plz)\b/.test(t)) return { notes: [] };
  planEmail(d, a, customer);
  planPhone(d, a, customer);
  planAddress(d, a, customer);
  const name = extractNameChange(a.text) ?? (a.answersValueQuestion === 'name' ? nameAnswer(a, customer) : undefined);
  if (name && name !== customer.name) gateValue(d, a, customer, { field: 'name', value: name, shown: name, at: name });
  const note = extractNoteRequest(a.text);
  // "add to my notes that…" keeps what the notes say: the new words go after them once the record is looked up.
  const addedNote = note && ADDS_TO_NOTES.test(normalize(a.text)) ? note : undefined;
  if (note && !addedNote) d.changes.notes = note;
  else if (!note && !bookingInMessage && !a.bookingWanted && noteWithoutText(a.text)) {
    d.notes.push('Sure. What would you like the note on your account to say?');
    d.offer = { kind: 'note_text' };
  }
  // "the gate code is 5521 now": a fact for the staff notes, added to what they say (the tool replaces them).
  const accessNote =
    addedNote ??
    (note || bookingInMessage || a.bookingWanted ? undefined : (extractAccessNote(a.text) ?? crewInstruction(a.text)));
  // "can u note the new door code for the building": the code itself is still to come, so it is asked for.
  const missingCode = note || accessNote || bookingInMessage || a.bookingWanted ? undefined : codeToNote(a.text);
  if (missingCode && !d.notes.length) {
    d.notes.push(`Sure. What's the new ${missingCode} code? I'll add it to the notes for your technician.`);
    d.offer = { kind: 'note_text' };
  }
  // What the note says is the note's, not a preference too; the rest of the message may still set one.
  const prefs = preferencesAsked(note ? { ...a, text: withoutNote(a.text, note) } : a, bookingInMessage);
  const channels = [...channelsAskedFor(a.text)];
  if (prefs.contact && channels.length > 1) {
    delete prefs.contact;
    d.notes.push(
      'Just to check: one contact preference covers all our messages (confirmations, reminders and ' +
        `on-the-way updates), so they can't come by two different channels. Which would you like for all of them: ` +
        `${channels.map((c) => CHANNEL_LABEL[c]).join(' or ')}?`,
    );
  }
  // "text me instead. mind you, it's a landline so it can't get texts": texts asked for where none can arrive.
  if (prefs.contact === 'sms' && CANNOT_TEXT.test(t)) {
    delete prefs.contact;
    d.notes.push(
      "Texts can't reach a landline. Would you like us to contact you by email or by phone call instead, or by text " +
        'to a mobile number (and if so, which one)?',
    );
  }
  // "we have a pet now so the crew knows": which animal is what the crew needs, so it is asked.
  if (prefs.pets && /^(?:an? |some |new )?pets?$/i.test(prefs.pets.trim())) {
    delete prefs.pets;
    d.notes.push('Sure. What kind of pet is it (and how many), so the crew knows what to expect?');
  }
  if (Object.keys(prefs).length) d.changes.preferences = prefs;
  askForMissingValues(d, a);
  // "i'd rather keep getting the text links": nothing to change, and said so.
  const kept = KEPT_CHANNEL.exec(normalize(a.text));
  if (kept && !Object.keys(d.changes).length && !d.notes.length)
    d.notes.push(`Understood: nothing has been changed, so you'll keep getting ${kept[1]} from us as you do now.`);
  const fromRecord = {
    ...(d.addressPatch ? { addressPatch: d.addressPatch } : {}),
    ...(accessNote ? { note: accessNote } : {}),
    // "please make sure you contact me by email": it may be so already, which the record says.
    ...(d.changes.preferences && CHECK_FIRST.test(normalize(a.text)) ? { onlyIfDifferent: true as const } : {}),
  };
  return {
    ...(Object.keys(d.changes).length ? { changes: d.changes } : {}),
    ...(Object.keys(fromRecord).length ? { fromRecord } : {}),
    notes: d.notes,
    ...(d.offer ? { offer: d.offer } : {}),
    ...(d.thirdParty ? { thirdParty: true as const } : {}),
  };
}

/** A change already made another way, with someone of ours saying so. */
const SORTED_ELSEWHERE = new RegExp(
  String.raw`\balready (?:e-?mailed|called|rang|phoned|told|messaged|sent|updated|changed)\b[^.!?]*` +
    String.raw`\b(?:replied|said|confirmed|told me)\b[^.!?]*\b(?:sorted|done|updated|changed|taken care|fine)\b`,
);

/** "… or 3301? i always mix up the last bit": the customer unsure of the value they give. */
const UNSURE_VALUE = new RegExp(
  String.raw`\b(?:mix(?:ed)? up|not (?:100% )?sure (?:if|whether|it'?s|its)|can'?t remember|cant remember)\b|` +
    String.raw`\bor (?:maybe )?\d{2,4}\s*\?`,
);

/** Between two values, words that take the first back: "… oh sorry, there is a dot in between: …". */
const TAKEN_BACK_BETWEEN = new RegExp(
  String.raw`\b(?:sorry|oops|typo|i meant|meant|correction|wrong|actually|no wait|scratch that|should be|` +
    String.raw`there is a|there's a)\b`,
  'i',
);

/** The value a message gives again, corrected, after the one it takes back; undefined when it does not. */
function correctedWithin<T extends { value: string }>(text: string, values: T[]): T | undefined {
  if (values.length < 2) return undefined;
  const inOrder = [...values].sort((x, y) => text.indexOf(x.value) - text.indexOf(y.value));
  const [first, last] = [inOrder[0]!, inOrder.at(-1)!];
  const between = text.slice(text.indexOf(first.value) + first.value.length, text.lastIndexOf(last.value));
  return TAKEN_BACK_BETWEEN.test(between) ? last : undefined;
}

/** "wrong one sorry, its …", "typo, i meant …": a value given again, corrected. */
const CORRECTION =
  /\b(?:wrong (?:one|email|address|number)|typo|i meant|meant to (?:say|type|write|put)|correction|my bad)\b/;

function planEmail(d: Draft, a: Analysis, customer: Customer) {
  const t = normalize(a.text);
  const emails = newValuesFirst(
    extractEmails(a.text),
    a.text,
    (e) => e.value,
    (e) => Boolean(customer.email && customer.email.toLowerCase() === e.value.toLowerCase()),
  );
  const e = correctedWithin(a.text, emails) ?? emails[0];
  if (!e) {
    // "sry meant gmail.com" right after we said the address had no proper ending: that address, completed.
    const fixed = a.incompleteEmail ? completedEmail(a.incompleteEmail, a.text) : undefined;
    if (fixed && fixed !== customer.email?.toLowerCase()) d.changes.email = fixed;
    return;
  }
  // "update my email to x@…, or actually maybe y@… is better, whichever you think": which one is theirs to say.
  const fresh = emails.filter((x) => x.valid && x.value.toLowerCase() !== customer.email?.toLowerCase());
  if (fresh.length > 1 && /\b(?:or|whichever|either)\b/.test(t)) {
    d.notes.push(
      `Which email address should we have on your account: ${fresh.map((x) => x.value).join(' or ')}? ` +
        "It's where we send your confirmations and receipts, so it's best you choose.",
    );
    return;
  }
  const onAccount = `the address on your account${customer.email ? ` (${customer.email})` : ''}`;
  // "send receipts to x@y from now on": where our emails go from here, i.e. the address on file.
  const standing = STANDING_DESTINATION.test(normalize(sentenceAt(a.text, a.text.indexOf(e.value))));
  const destination =
    (a.cues.sendEmail || sendsTo(a.text, e.value)) && !/\b(change|update|new|switch|replace)\b/.test(t) && !standing;
  // A destination named as another person's ("… to dave@… so he knows"): not theirs to put on file either.
  if (
    belongsToSomeoneElse(a.text, e.value) ||
    (destination && namesSomeoneElse(sentenceAt(a.text, a.text.indexOf(e.value))))
  ) {
    d.thirdParty = true;
    d.notes.push(
      `I can only send emails to ${onAccount}, so I can't email anyone else or add another address. ` +
        'Nothing has been changed.',
    );
    return;
  }
  // The email word right before the address ("email: x@y", "new email is x@y") says it is theirs.
  const changeAsked =
    CHANGE_CUE.test(t) ||
    CORRECTION.test(t) ||
    standing ||
    a.answersValueQuestion === 'email' ||
    // the whole address again, right after we said the one given was not complete
    (a.incompleteEmail !== undefined && e.valid) ||
    /\be-?mail(?: address)?\s*(?:is|to|:|-)?\s*[^\s@]+@/.test(t);
  const spaced = e.valid ? spacedEmailPart(a.text, e.value) : undefined;
  if (spaced && changeAsked) {
    const [local, domain] = e.value.split('@');
    d.notes.push(
      `An email address can't have a space in it: should it be ${spaced}${local}@${domain} or ` +
        `${spaced}.${local}@${domain}?`,
    );
  } else if (!e.valid) {
    if (changeAsked)
      d.notes.push(`"${e.value}" doesn't look like a complete email address. Could you double-check it?`);
  } else if (customer.email && customer.email.toLowerCase() === e.value.toLowerCase()) {
    if (changeAsked && !a.cues.sendEmail)
      d.notes.push(`${e.value} is already the email address we have on file, so there's nothing to change.`);
  } else if (destination) {
    d.notes.push(`Emails go to ${onAccount}. Would you like me to update your email address to ${e.value}?`);
    d.offer = offerUpdate(customer, 'email', e.value);
  } else if (changeAsked) {
    gateValue(d, a, customer, { field: 'email', value: e.value, shown: e.value, at: e.value });
  } else if (!a.bookingWanted && !a.problem && !['negated', 'hypothetical'].includes(stanceOfValue(a.text, e.value))) {
    // An address with no word about it: ask whether it is their new one.
    d.notes.push(`Would you like me to update your email address to ${e.value}?`);
    d.offer = offerUpdate(customer, 'email', e.value);
  }
}

/** "4420 is correct", "the second one": which of the two numbers we asked about the answer picks. */
function phonePicked(text: string, options: readonly string[]): string | undefined {
  const t = normalize(text);
  const endings = [...t.matchAll(/(?<!\d)(\d{3,4})(?!\d)/g)].map((m) => m[1]!);
  const byEnding = options.filter((o) => endings.some((e) => digitsOf(o).endsWith(e)));
  if (byEnding.length === 1) return byEnding[0];
  if (/\b(?:the )?(?:first|former|1st)(?: one)?\b/.test(t)) return options[0];
  if (/\b(?:the )?(?:second|latter|2nd|last)(?: one)?\b/.test(t)) return options[1];
  return undefined;
}

function planPhone(d: Draft, a: Analysis, customer: Customer) {
  const t = normalize(a.text);
  // The answer to our "Which should it be: A or B?" is the change asked for, said by the number's ending.
  const picked = a.phoneChoice && !extractPhones(a.text).length ? phonePicked(a.text, a.phoneChoice) : undefined;
  if (picked) {
    if (!samePhone(customer.phone, picked)) d.changes.phone = picked;
    return;
  }
  const phones = newValuesFirst(
    extractPhones(a.text),
    a.text,
    (p) => p,
    (p) => samePhone(customer.phone, p),
  );
  const phoneAsked =
    phones.length > 0 &&
    (PHONE_CUE.test(t) || CHANGE_CUE.test(t) || CORRECTION.test(t) || a.answersValueQuestion === 'phone');
  const partial = phones.length ? [] : incompletePhones(a.text);
  if (partial.length && PHONE_CUE.test(t) && !belongsToSomeoneElse(a.text, partial[0]!))
    d.notes.push(`${partial[0]} looks incomplete. Could you send me the full phone number, including the area code?`);
  if (!phoneAsked) return;
  const p = phones[0]!;
  // "update my phone to the one im messaging from, the 555… was my old work line": the only number given is the old.
  if (phones.length === 1 && saidAsOld(a.text, p)) {
    d.notes.push(
      VALUE_WE_CANNOT_SEE.test(t)
        ? "I can't see the number you're messaging from here. Could you type the new number for me?"
        : 'What is the new phone number you would like on your account?',
    );
    return;
  }
  // "new number is 555 201 3310... or 3301? i always mix up the last bit": a number they are unsure of.
  if (UNSURE_VALUE.test(t)) {
    d.notes.push(
      `Could you double-check the new number for me? I have ${p}, but I'd rather not save it unless it's right.`,
    );
    return;
  }
  // "New numbers: mobile 555…, landline 555…": two new numbers for the one phone on file; which is asked.
  const fresh = phones.filter(
    (x) => !samePhone(customer.phone, x) && !saidAsOld(a.text, x) && !belongsToSomeoneElse(a.text, x),
  );
  if (fresh.length > 1) {
    d.notes.push(`We keep one phone number on your account. Which should it be: ${fresh.join(' or ')}?`);
    return;
  }
  if (belongsToSomeoneElse(a.text, p)) d.thirdParty = true;
  else if (samePhone(customer.phone, p)) d.notes.push(`${p} is already the phone number we have on file.`);
  else gateValue(d, a, customer, { field: 'phone', value: p, shown: p, at: p });
}

/** Someone else said to be moving just before the address: "my daughter's moving to …", "my mum lives at …". */
const MOVER_BEFORE = new RegExp(
  String.raw`\b(?:my|our|his|her|their) (?:landlord|landlady|husband|wife|partner|mom|mum|dad|mother|father|son|` +
    String.raw`daughter|sister|brother|friend|neighbou?r|boss|colleague|tenant|roommate|kids?|parents?|in-laws?)` +
    String.raw`(?:'s| is| are)? (?:moving|moved|relocating|living|lives|staying)(?: (?:in|to|at|into))?\s*$`,
);

/** Where an address (or the cue for one) is said: the street number, else the cue word. */
const addressAnchor = (text: string, found: NonNullable<AddressExtraction>) =>
  (found.ok ? /\d+/.exec(found.address.line1)?.[0] : found.partial) ||
  /\b(?:moved|moving|address|relocat\w*|new place|live at)\b/i.exec(text)?.[0] ||
  '';

/** A code asked to be put on the account without the code ("note the new door code", "update my gate code"). */
const CODE_TO_NOTE = new RegExp(
  String.raw`\b(?:note|add|update|change|save|put|record)\b[^.!?]*?\b(?:the |my |our )?(?:new )?` +
    String.raw`(door|gate|lock ?box|alarm|building|entry|key ?pad|garage|front door|back door) code\b`,
);
function codeToNote(text: string): string | undefined {
  const t = normalize(text);
  const m = CODE_TO_NOTE.exec(t);
  return m && !/\d/.test(t) ? m[1] : undefined;
}

/** A street named by its kind ("elm row", "oak st"): another street than the one on file, number or not. */
const NEW_STREET = new RegExp(String.raw`\b[a-z]+ ${STREET_TYPE}\b`, 'i');

/**
 * "SP 1024, it's in the old town" after we asked for the rest of "27 Elm Road, unit 5, Springfield": the
 * address given before with what this answer adds (its postal code), when together they make a whole one.
 */
function completedAddress(a: Analysis): AddressExtraction {
  if (!a.addressBefore) return undefined;
  const postal = /\b([A-Z]{1,3}\s?\d{3,5}|\d{5}(?:-\d{4})?)\b/i.exec(a.text)?.[1];
  if (!postal) return undefined;
  const street = a.addressBefore.replace(/[.\s]+$/, '');
  // "Springfield, SP 1024. no unit": the town with its postal code, after the street given before.
  const rest = a.text.split(/(?<=[.!?])\s+|\n+/).find((s) => s.includes(postal));
  const withTown = rest ? addressAnswer(`${street}, ${rest.replace(/[.\s]+$/, '')}`) : undefined;
  if (withTown?.ok) return withTown;
  const whole = addressAnswer(`${street} ${postal.toUpperCase()}`);
  return whole?.ok ? whole : undefined;
}

function planAddress(d: Draft, a: Analysis, customer: Customer) {
  // "oops forgot, its unit 5" right after giving an address: that address, now with its unit.
  const revised = revisedAddress(a.text, a.addressInDiscussion);
  if (revised) {
    d.changes.address = revised;
    return;
  }
  const address =
    extractAddress(a.text) ??
    (a.answersValueQuestion === 'address' ? (completedAddress(a) ?? addressAnswer(a.text)) : undefined);
  // "new unit 9, same building": the rest of the address is the record's, completed once it is looked up.
  // "moving to the blue house on elm row, unit 8": a new street without its number is no patch of the old address.
  const elsewhere = address && !address.ok && NEW_STREET.test(address.partial);
  const patch = address?.ok || elsewhere ? undefined : extractAddressPatch(a.text);
  if (patch) {
    if (stanceOfValue(a.text, patch.street ?? (patch.unit ?? '').split(' ').at(-1)!) === 'request')
      d.addressPatch = patch;
    return;
  }
  if (!address) {
    // "address is elm court in the next town, the blue house at the end. can you put it on my account": a street with
    // no number, asked to go on the account.
    const t = normalize(a.text);
    const asked = /\baddress (?:is|:)/.test(t) && /\b(?:put|add|update|change|save)\b/.test(t);
    if ((asked || a.answersValueQuestion === 'address') && NEW_STREET.test(t))
      d.notes.push(
        'Sure. Could you send me the full new address, including the house number, any apartment or unit number, ' +
          `the city and the postal code? For example: ${EXAMPLE_ADDRESS}.`,
      );
    return;
  }
  const anchor = addressAnchor(a.text, address);
  // "my daughter's moving to 9 alder row … do u go out there?": someone else's new address is not theirs to change.
  if (MOVER_BEFORE.test(normalize(a.text.slice(0, a.text.indexOf(anchor))))) return;
  // The address given right after we asked for it is the one to put on the account.
  if (address.ok && a.answersValueQuestion === 'address') {
    d.changes.address = address.address;
    return;
  }
  if (address.ok) {
    gateValue(d, a, customer, {
      field: 'address',
      value: address.address,
      shown: formatAddress(address.address),
      at: anchor,
    });
  } else if (stanceOfValue(a.text, anchor) === 'request') {
    d.notes.push(
      'Could you send me the full new address, including the street, any apartment or unit number, ' +
        `the city and the postal code? For example: ${EXAMPLE_ADDRESS}.`,
    );
  }
}

/** Words that name each standing preference, to find the sentences that speak of it. */
const PREFERENCE_WORDS: Record<keyof PreferenceChanges, RegExp> = {
  contact: /\b(?:texts?|texting|sms|e-?mails?|e-?mailing|calls?|calling|phone|ring|contact)\b/,
  preferred_time: /\b(?:mornings?|afternoons?|any ?time|whenever|no preference)\b/,
  eco_products: /\b(?:eco|green|natural|non[- ]?toxic|chemicals?|fragrance)/,
  pets: /\b(?:dogs?|cats?|pupp(?:y|ies)|kittens?|rabbits?|bunn(?:y|ies)|parrots?|birds?|hamsters?|pets?)\b/,
};

/** "can the reminders come by text instead?": a question that asks for another channel from now on. */
const CHANNEL_SWITCH_ASKED = new RegExp(
  String.raw`\b(?:can|could|would|will)\b[^.!?]*\b(?:by|via|over|as|through) ` +
    String.raw`(?:texts?|sms|e-?mails?|phone(?: calls?)?|calls?)\b[^.!?]*\b(?:instead|from now on|going forward)\b`,
);

const PREFERRED_TIME = /\b(?:preferred (?:visit )?time|time preference|preferred time of day)\b/;

/** The standing preferences the message asks to set, with the evidence rules applied. */
function preferencesAsked(a: Analysis, bookingInMessage: boolean): PreferenceChanges {
  const t = normalize(a.text);
  const prefs: PreferenceChanges = extractPreferences(a.text);
  // "texts r fine" answering our "how would you like us to contact you instead?": the channel they pick.
  if (a.answersValueQuestion === 'contact') {
    // "calls. i never check my email either": a channel said not to be used is no answer.
    const said = t.replace(CHANNEL_NOT_USED, ' ');
    const picked = prefs.contact ?? [...channelsNamed(said)][0];
    return picked && channelsNamed(said).size <= 1 ? { ...prefs, contact: picked } : prefs;
  }
  // "afternoons" answering our "Which time of day should we keep as your preferred time…?".
  if (a.answersValueQuestion === 'preferred_time') {
    const part = /\bmornings?\b/.test(t)
      ? 'mornings'
      : /\bafternoons?\b/.test(t)
        ? 'afternoons'
        : /\b(?:any ?time|anytime|whenever|either|no preference|doesn'?t matter)\b/.test(t)
          ? 'any'
          : undefined;
    return part && !(/\bmornings?\b/.test(t) && /\bafternoons?\b/.test(t)) ? { ...prefs, preferred_time: part } : prefs;
  }
  // Evidence required: a question that mentions a pet or a time of day, or taking a request back while
  // saying how they'll be in touch, asks for no change of their standing preferences.
  // "just making sure you've got it on file that…?" asks for it to be so: the record says whether it is (fromRecord).
  const checked = ON_FILE_CHECK.test(t);
  if (!EXPLICIT_UPDATE.test(t) && !CHANNEL_SWITCH_ASKED.test(t) && !checked && (a.infoQuestion || a.cues.question))
    return {};
  if (a.cues.withdraw && !/\b(?:contact|text|call|reach|email|e-mail) (?:me|us)\b|\bprefer/.test(t))
    delete prefs.contact;
  if (bookingInMessage || a.bookingWanted || a.rescheduleWanted) {
    // In a booking message these are notes for the crew, not standing preferences.
    delete prefs.pets;
    delete prefs.eco_products;
    delete prefs.preferred_time;
  }
  if (a.cues.sendEmail) delete prefs.contact;
  for (const key of Object.keys(prefs) as (keyof PreferenceChanges)[])
    if (!checked && stanceOfMention(a.text, PREFERENCE_WORDS[key]) !== 'request') delete prefs[key];
  return prefs;
}

const CHANNEL_NOT_USED = new RegExp(
  String.raw`\b(?:never|don'?t|do not|not|no|hardly ever|rarely)\b[^.!?,]{0,25}?` +
    String.raw`\b(?:e-?mails?|e-?mailing|texts?|texting|sms|phone|calls?|calling)\b`,
  'g',
);

/** The contact channels a short answer names ("texts r fine", "phone pls"). */
function channelsNamed(t: string): Set<NonNullable<PreferenceChanges['contact']>> {
  const out = new Set<NonNullable<PreferenceChanges['contact']>>();
  if (/\b(?:texts?|texting|sms|text messages?)\b/.test(t)) out.add('sms');
  if (/\b(?:e-?mails?|e-?mailing)\b/.test(t)) out.add('email');
  if (/\b(?:phone|calls?|calling|ring)\b/.test(t)) out.add('phone');
  return out;
}

/** Their details as a whole, no field named ("my details", "my info"). */
const MY_DETAILS = /\b(?:my|our) (?:contact |account |personal )?(?:details|info|information|particulars)\b/;

/** A field of the record the customer asks to change, with its words. */
const FIELD_WORDS: Record<Field, RegExp> = {
  email: /\be-?mail(?: address)?\b/,
  phone: /\b(?:phone(?: number)?|(?:cell|mobile)(?: number)?|number)\b(?! of\b)/,
  address: /\baddress\b/,
  name: /\b(?:(?:last|first|sur|full|married|maiden) ?name|name)\b/,
};
const STOP_WORD = /\b(?:stop|quit|no more|don'?t|do not)\b/;
const CHANGE_WORD = new RegExp(
  String.raw`\b(?:change|changed|update|updated|correct|fix|switch|swap|swop|replace|new|different|add)\b|` +
    // "can you put my address on my account": a value to go on the record, said as putting it there.
    String.raw`\b(?:put|save|store|record|enter|write)\b(?=.*\b(?:on|in|into|onto|to) (?:my|our|the|your|ur) ` +
    String.raw`(?:account|file|profile|records?|system|details)\b)`,
);
/** How we contact them, named as a thing to change ("how you get hold of me", "my contact preference"). */
const CONTACT_WAY = new RegExp(
  String.raw`\b(?:how|way) (?:you|u|ya|we) (?:contact|reach|get hold of|get in touch with|message) (?:me|us)\b|` +
    String.raw`\bcontact (?:preference|method|setting)s?\b`,
);
/** "contact me the other way from now on": another channel asked for, without naming it. */
const OTHER_WAY =
  /\b(?:contact|reach|message|get hold of) (?:me|us) (?:the other way|another way|some other way|differently)\b/;
/** The number on file cannot take texts: "it's a landline", "can't get texts". */
const CANNOT_TEXT = new RegExp(
  String.raw`\b(?:(?:it'?s|its|it is|that'?s|thats|that is|only (?:have|got)) an? landline|` +
    String.raw`(?:can'?t|cannot|can not|doesn'?t|does not|won'?t) (?:get|receive|do|take) (?:texts?|sms)|` +
    String.raw`no (?:mobile|cell))\b`,
);

/** A channel we do not offer, named as the way to reach them ("contact me on whatsapp", "reminders via signal"). */
const UNOFFERED_CHANNEL = new RegExp(
  String.raw`\b(?:on|via|by|through|over|using|to)\s+` +
    String.raw`(?:whats ?app|signal|telegram|messenger|facebook|fb|instagram|insta|dms?|wechat|viber|imessage)\b`,
);

/**
 * "Update my phone number please" without the number: ask for the value instead of guessing or
 * answering with a help article. Only for a field nothing else in the message already speaks to.
 */
function askForMissingValues(d: Draft, a: Analysis) {
  if (d.notes.length || Object.keys(d.changes).length || d.offer || a.cues.sendEmail || a.bookingWanted) return;
  const t = normalize(a.text);
  // "change how u contact me to whatsapp": a channel the record cannot hold (schema/tools: email, sms, phone).
  if (UNOFFERED_CHANNEL.test(t) && stanceOfMention(a.text, UNOFFERED_CHANNEL) === 'request') {
    d.notes.push(
      "Sorry, we can't contact you that way: we can reach you by email, text message or phone call. " +
        'Which of those would you like us to use?',
    );
    return;
  }
  // "can you change how you get hold of me": the way to be contacted, with no channel named.
  if (CHANGE_WORD.test(t) && CONTACT_WAY.test(t) && !channelsAskedFor(a.text).size) {
    d.notes.push('Sure. Would you like us to contact you by email, text message or phone call?');
    return;
  }
  // "can you stop contacting me by email, id rather something else": the channel to use instead is not said.
  const stopped = channelStopped(a.text);
  if (
    stopped &&
    !channelsAskedFor(a.text).size &&
    (stanceOfMention(a.text, STOP_WORD) === 'request' || OTHER_WAY.test(t))
  ) {
    const others = (['email', 'sms', 'phone'] as const).filter((c) => c !== stopped).map((c) => CHANNEL_LABEL[c]);
    d.notes.push(`Sure. How would you like us to contact you instead: by ${others.join(' or ')}?`);
    return;
  }
  // "my details on here are soooo out of date, can u fix them": which details, and what they are now, is asked.
  if (
    MY_DETAILS.test(t) &&
    (CHANGE_WORD.test(t) || /\b(?:out of date|outdated|old|wrong)\b/.test(t)) &&
    stanceOfMention(a.text, MY_DETAILS) === 'request' &&
    !(Object.keys(FIELD_WORDS) as Field[]).some((f) => FIELD_WORDS[f].test(t))
  ) {
    d.notes.push(
      'Sure. Which details have changed (your email, phone number or address), and what are the new ones? ' +
        "I'll send the change for approval.",
    );
    return;
  }
  // "could you change the preferred time on my account?": the part of the day they want now is asked.
  if (PREFERRED_TIME.test(t) && CHANGE_WORD.test(t) && stanceOfMention(a.text, PREFERRED_TIME) === 'request') {
    d.notes.push(
      'Sure. Which time of day should we keep as your preferred time for visits: mornings, afternoons, or any time?',
    );
    return;
  }
  // "new number is 201-88 pls change it": a value too short to be one is no value.
  if (!CHANGE_WORD.test(t) || !/\b(?:my|our|the|new)\b/.test(t)) return;
  const field = (Object.keys(FIELD_WORDS) as Field[]).find(
    (f) =>
      FIELD_WORDS[f].test(t) &&
      changeOf(a.text, FIELD_WORDS[f], CHANGE_WORD) &&
      stanceOfMention(a.text, FIELD_WORDS[f]) === 'request',
  );
  if (!field) return;
  d.notes.push(
    field === 'address'
      ? 'Sure. Could you send me the new address, including the street, any apartment or unit number, ' +
          `the city and the postal code? For example: ${EXAMPLE_ADDRESS}.`
      : `Sure. What ${FIELD_LABEL[field]} should we have on your account?`,
  );
}

/**
 * The name sent after we asked for it: "It's Brookes, with an e before the s." A part of it alone replaces that
 * part of the name on file (the surname, unless they asked about their first name).
 */
function nameAnswer(a: Analysis, customer: Customer): string | undefined {
  // "Lee. Ann Lee.": of the name-like parts, the fullest.
  const names = a.text
    .split(/[,.!?;:]/)
    .map((part) => part.trim().replace(/^(?:it'?s|it is|its|should be|my name is|name is|the name is)\s+/i, ''))
    .map((part) => part.split(/\s+/))
    .filter((ws) => ws.length <= 4 && ws.every((w) => /^\p{Lu}[\p{L}'’-]*$/u.test(w)));
  const words = names.sort((x, y) => y.length - x.length)[0];
  if (!words) return undefined;
  if (words.length > 1) return words.join(' ');
  const onFile = customer.name.trim().split(/\s+/);
  if (onFile.length < 2) return undefined;
  return a.namePartAsked === 'first'
    ? [words[0], ...onFile.slice(1)].join(' ')
    : [...onFile.slice(0, -1), words[0]].join(' ');
}

/** Someone other than the customer in a sentence: a pronoun for them or a relation. */
function namesSomeoneElse(sentence: string): boolean {
  const t = normalize(sentence);
  return THIRD_PARTY.test(t) || /\b(?:he|she|they)\b/.test(t);
}

/** Words that ask for a change on the record, as opposed to mentioning something in a question. */
const EXPLICIT_UPDATE = new RegExp(
  String.raw`\b(update|change|set|switch|from now on|going forward|in future|note (?:that|on)|add|please use|` +
    String.raw`prefer|preference)\b`,
);

/**
 * Several values of one kind ("change my number from X to Y", "replace X with Y", "I don't use X anymore, use
 * Y"): the ones said as the old value, or already on file, go last, so the first is the new one.
 */
/** Words right before a value that say it is the one being replaced: "from X", "instead of my old number X". */
const OLD_VALUE_BEFORE = new RegExp(
  String.raw`\b(?:from|replace|instead of|not|old|than|don'?t use|no longer use|stop using)\s*(?:my\s+)?` +
    String.raw`(?:old\s+)?(?:number|phone|email|e-mail|address)?\s*(?:is\s+)?$`,
);

function newValuesFirst<T>(values: T[], text: string, raw: (v: T) => string, onFile: (v: T) => boolean): T[] {
  if (values.length < 2) return values;
  const old = (v: T) => onFile(v) || saidAsOld(text, raw(v));
  return [...values.filter((v) => !old(v)), ...values.filter(old)];
}

/** A value the message calls the one being replaced: "old number 555…", "555… is wrong", "… was my old work line". */
function saidAsOld(text: string, value: string): boolean {
  const at = text.indexOf(value);
  if (at < 0) return false;
  const before = normalize(text.slice(Math.max(0, at - 40), at));
  const after = normalize(text.slice(at + value.length, at + value.length + 30));
  return OLD_VALUE_BEFORE.test(before) || OLD_VALUE_AFTER.test(after);
}
const OLD_VALUE_AFTER = new RegExp(
  String.raw`^[^.!?]{0,3}\s*(?:is (?:old|wrong|out of date)|anymore|no longer|` +
    String.raw`(?:is|was) (?:my|our|the) (?:old|previous|former)\b)`,
);

/** The new value pointed at where we cannot see it: "the one im messaging from", "this number". */
const VALUE_WE_CANNOT_SEE = new RegExp(
  String.raw`\b(?:the|this) (?:one|number) (?:i'?m|im|i am) ` +
    String.raw`(?:messaging|texting|writing|typing|contacting you|on)(?: (?:u|you))?(?: from| on| with)?\b`,
);

const THIRD_PARTY = new RegExp(
  String.raw`\b(?:his|her|their|him|them|landlord|landlady|husband|wife|partner|mom|mum|dad|mother|father|son|` +
    String.raw`daughter|sister|brother|friend|neighbou?r|boss|colleague|tenant|roommate|accountant|assistant)\b`,
);

/** "my gf's number", "our nanny's email": a value named as another person's, whoever they are. */
const SOMEONES_VALUE = /\b(?:my|our)\s+(?!own\b)[a-z]+(?:'s|’s|s')\s+(?:new\s+)?(?:e-?mail|number|phone|mobile|cell)\b/;

/** A value that the sentence gives as someone else's ("email my landlord at x@y", "his is x@y"). */
function belongsToSomeoneElse(text: string, value: string): boolean {
  const at = text.indexOf(value);
  if (at < 0) return false;
  const sentenceStart =
    Math.max(text.lastIndexOf('.', at - 2), text.lastIndexOf('!', at), text.lastIndexOf('?', at)) + 1;
  const before = normalize(text.slice(sentenceStart, at));
  return (
    (THIRD_PARTY.test(before) || SOMEONES_VALUE.test(before)) &&
    !/\bmy (?:new |own )?(?:e-?mail|number|phone)\b/.test(before)
  );
}

/** "Update my notes - the dog sleeps upstairs now": the notes on file named, then what they should say. */
const NOTE_UPDATE = new RegExp(
  String.raw`\b(?:update|change|add to) (?:my|the) (?:account |file )?notes?(?: on (?:my )?(?:file|account))?` +
    // "update my notes, the crate is in the garage now": a comma before what they say, unless more requests follow.
    String.raw`\s*(?:with|to say|that|:|-|\u2013|\u2014|,(?!\s*(?:and|also|too|pls|please|thanks|thx)\b))\s*(.+)`,
  'i',
);

/** The notes on file named as what the new words are added to ("add to my notes", "add this to the notes"). */
const ADDS_TO_NOTES = new RegExp(
  // "can you add a note for whoever comes: …": a note added is one more, and the staff notes already there stay.
  String.raw`\b(?:add|put|leave|stick|pop|jot)(?:ing)? (?:a |another )?(?:quick |little |short )?note\b|` +
    String.raw`\badd(?:ing)? (?:(?:this|that|it) )?(?:on)?to ` +
    String.raw`(?:(?:my|the|our) (?:account |file |customer |staff )?notes\b|` +
    String.raw`the notes (?:on|in) (?:my|our) (?:account|file|record)\b)`,
);

/** "Put that on my file", "add this to my notes": a note whose words came just before. */
const NOTE_THAT = new RegExp(
  String.raw`\b(?:put|add|keep|save|write) (?:that|this|it) (?:down )?(?:on|to|in) (?:my|the) ` +
    String.raw`(?:file|account|record|notes|profile)\b`,
  'i',
);

/** The message with a note's own words taken out. */
function withoutNote(text: string, note: string): string {
  const at = text.toLowerCase().indexOf(note.toLowerCase());
  return at < 0 ? text : text.slice(0, at) + text.slice(at + note.length);
}

/** "Add a note to my account that…", "put a note on file: …": the note's text. */
export function extractNoteRequest(text: string): string | undefined {
  const pointed = NOTE_THAT.exec(text);
  if (pointed) {
    // "the crate's in the garage now - can you put that on my file": the note is what came before.
    const before = splitSentences(text.slice(0, pointed.index)).at(-1) ?? '';
    const said = before
      .replace(/\b(?:so )?(?:can|could|would|will) you(?: please| pls)?\s*$/i, '')
      .replace(/^\s*(?:heads up|fyi|btw|just so you know)[\s,:-]*/i, '')
      .replace(/[\s,;:\u2013\u2014-]+$/, '')
      .trim();
    // Words that set a standing preference ("we adopted two cats, put that on file") or give a new address ("new
    // place is on elm court, can u put that on my account") are that, not a note.
    // So does a street without its number ("address is elm court, the blue house at the end"), asked about instead.
    if (
      said.length >= 3 &&
      !Object.keys(extractPreferences(said)).length &&
      extractAddress(said) === undefined &&
      !/\baddress\b/i.test(said) &&
      !NEW_STREET.test(said)
    )
      return capitalize(said).slice(0, 2000);
  }
  const m =
    NOTE_REQUEST.exec(text) ??
    NOTE_UPDATE.exec(text) ??
    /\bnote (?:on|to) (?:my|the) (?:account|acct|file|record)(?:\s*(?:that|:|-))?\s+(.+)/i.exec(text);
  const note = m?.[1]
    ?.trim()
    .replace(NOTE_READER, '')
    .replace(/^(?:pls|plz|please)\b[\s,:-]*/i, '')
    .replace(/(?:(?:^|[\s,]+)(?:pls|plz|please|thanks|thx|ty|thank you))+[.!\s]*$/i, '')
    .replace(/[.!\s]+$/, '');
  // "add a note to my account" names where the note goes; what it says is still to come.
  if (!note || /^(?:account|acct|file|record|profile)$/i.test(note)) return undefined;
  return note.length >= 3 ? capitalize(note).slice(0, 2000) : undefined;
}

/** Who a note is for ("for the crew", "to the cleaners"): said before what it says, and not part of it. */
const NOTE_READER = new RegExp(
  '^(?:for|to) (?:(?:the|my|your|our) (?:crew|cleaners?|techs?|technicians?|team|staff|guys?|handyman|' +
    String.raw`plumber|installers?)|(?:whoever|anyone who|the (?:person|one) who)(?:'s| is)? (?:comes?|coming)` +
    String.raw`(?: out| over| round| around| by)?)\b(?:\s*(?:that|saying|to say|:|-))?\s*`,
  'i',
);

/** A note asked for with nothing said for it ("add a note for the crew pls"): what it should say is asked. */
const NOTE_ASKED = new RegExp(
  String.raw`\b(?:add|put|leave|make|save|keep|write|stick|pop|jot) (?:a )?note\b|` +
    // "need to update the note about the rabbit, things changed": the note there is to be rewritten, words to come.
    String.raw`\b(?:update|change|edit|redo|rewrite|amend|fix) (?:the|my|our) (?:\w+ )?notes?\b`,
  'i',
);

export const noteWithoutText = (text: string): boolean =>
  NOTE_ASKED.test(text) && !NOTE_THAT.test(text) && extractNoteRequest(text) === undefined;

/**
 * "Email the confirmation to my work address x@y", "send an email to x@y": a destination, not a new address on file.
 */
function sendsTo(text: string, address: string): boolean {
  const escaped = address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `(?:\\b(?:send|forward|cc)\\b|\\be-?mail (?:it|that|this|them|the|a|an|my)\\b)[^.!?]*\\bto\\b[^.!?@]*${escaped}`,
    'i',
  ).test(text);
}

/** The message asks to change contact details or preferences (for an unlinked user: something we cannot do). */
export function hasContactChange(text: string, cues: Cues): boolean {
  const prefs = extractPreferences(text);
  return (
    (extractEmails(text).length > 0 && CHANGE_CUE.test(normalize(text)) && !cues.sendEmail) ||
    (extractPhones(text).length > 0 && PHONE_CUE.test(normalize(text))) ||
    extractAddress(text) !== undefined ||
    extractNameChange(text) !== undefined ||
    Object.keys(prefs).length > 0
  );
}

/** The record as lookup_customer returns it: the parts an update builds on. */
interface RecordOnFile {
  address?: { line1: string; unit?: string | null; city: string; postal_code: string } | null;
  notes?: string | null;
  preferences?: Record<string, unknown> | null;
}

/** Words that ask for something to be so, which it may already be: "make sure", "ensure", "keep". */
/** "just making sure you've got it on file that…?": a question that asks for something to be on the record. */
const ON_FILE_CHECK =
  /\b(?:(?:you'?ve|you have|you) got (?:it|that)|(?:it'?s|that'?s|is it)) (?:down |noted )?on file\b/;

const CHECK_FIRST = new RegExp(
  String.raw`\b(?:make sure|making sure|ensure|double check|double-check|please keep|keep (?:it|using)|` +
    String.raw`(?:you'?ve|you have|you) got (?:it|that) on file|(?:it'?s|that'?s|is it) on file)\b`,
);

/** The preferences asked for that the record already has, taken out of `changes` and said in `notes`. */
function withoutPreferencesOnFile(changes: Record<string, unknown>, found: RecordOnFile | undefined, notes: string[]) {
  const asked = changes.preferences as Record<string, unknown> | undefined;
  if (!asked || !found?.preferences) return;
  const onFile = found.preferences;
  const same = Object.keys(asked).filter((k) => JSON.stringify(onFile[k]) === JSON.stringify(asked[k]));
  if (!same.length) return;
  const rest = Object.fromEntries(Object.entries(asked).filter(([k]) => !same.includes(k)));
  if (Object.keys(rest).length) changes.preferences = rest;
  else delete changes.preferences;
  // "contact preference to email" (the one description of a change) reads "contact preference: email" here.
  const said = describeChanges({ preferences: Object.fromEntries(same.map((k) => [k, asked[k]])) });
  notes.push(
    `That's already on file, so nothing needs to change (${said.map((d) => d.replace(' to ', ': ')).join('; ')}).`,
  );
}

/** "gate code", "lockbox code": the kind of access code a note gives. */
const CODE_KIND = /\b(gate|lockbox|lock box|key ?safe|alarm|door|building|entry|garage) code\b/i;

/** The notes on file without the sentence giving the code of the kind a new note replaces ("Gate code 4412."). */
function withoutReplacedCode(notes: string, note: string): string {
  const kind = CODE_KIND.exec(note)?.[1];
  if (!kind) return notes;
  const same = new RegExp(String.raw`\b${kind.replace(/\s+/g, '\\s*')}\s*code\b`, 'i');
  return splitSentences(notes)
    .filter((s) => !same.test(s))
    .join(' ');
}

/**
 * The update_customer a RecordWrite makes once the record is in: the address with the part changed, the
 * notes with the new fact added. A patch the record cannot complete (no address on file, another street)
 * is asked about instead.
 */
export function updateFromRecord(
  customerId: string,
  write: RecordWrite,
  lookup: unknown,
): { call?: { name: 'update_customer'; args: Record<string, unknown> }; notes: string[] } {
  const found = lookup && typeof lookup === 'object' ? (lookup as { customer?: RecordOnFile }).customer : undefined;
  const changes: Record<string, unknown> = { ...write.changes };
  const notes: string[] = [];
  if (write.onlyIfDifferent) withoutPreferencesOnFile(changes, found, notes);
  if (write.addressPatch) {
    const current = found?.address;
    const address = applyAddressPatch(current, write.addressPatch);
    if (!address) {
      notes.push(
        'Could you send me the full new address, including the street, any apartment or unit number, ' +
          `the city and the postal code? For example: ${EXAMPLE_ADDRESS}.`,
      );
    } else if (
      normalize(current?.line1 ?? '') === normalize(address.line1) &&
      normalize(current?.unit ?? '') === normalize(address.unit ?? '')
    ) {
      notes.push(`${formatAddress(address)} is already the address we have on file.`);
    } else changes.address = address;
  }
  if (write.note) {
    const before = withoutReplacedCode((found?.notes ?? '').trim(), write.note).replace(/[.\s]+$/, '');
    const already = before && normalize(before).includes(normalize(write.note));
    if (!already) changes.notes = (before ? `${before}. ${write.note}` : write.note).slice(0, 2000);
  }
  return {
    ...(Object.keys(changes).length
      ? { call: { name: 'update_customer' as const, args: { customer_id: customerId, changes } } }
      : {}),
    notes,
  };
}
