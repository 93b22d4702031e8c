import type { PlanContext } from '../../../plan-context.js';
import { EXAMPLE_ADDRESS } from '../../../../schema/business/service-area.js';
import type { Offer } from '../conversation.js';
import { CHANGE_CUE, PHONE_CUE, type Analysis } from '../analysis/analyze.js';
import type { Cues } from '../analysis/cues.js';
import {
  extractAddress,
  extractEmails,
  extractNameChange,
  extractPhones,
  extractPreferences,
  incompletePhones,
  type PreferenceChanges,
  samePhone,
} from '../analysis/entities.js';
import { capitalize, normalize } from '../analysis/text.js';

export interface UpdatePlan {
  changes?: Record<string, unknown>;
  notes: string[];
  offer?: Offer;
  /** A value in the message was given as someone else's: refused, and nothing of theirs changed. */
  thirdParty?: true;
}

/** Contact details and preferences the message changes, or the question to ask about them. */
export function planUpdate(
  a: Analysis,
  customer: NonNullable<PlanContext['customer']>,
  bookingInMessage: boolean,
): UpdatePlan {
  const t = normalize(a.text);
  const changes: Record<string, unknown> = {};
  const notes: string[] = [];
  let offer: Offer | undefined;
  let thirdParty = false;

  const allEmails = extractEmails(a.text);
  const emails = newValuesFirst(
    allEmails,
    a.text,
    (e) => e.value,
    (e) => Boolean(customer.email && customer.email.toLowerCase() === e.value.toLowerCase()),
  );
  const someoneElses = emails.length > 0 && belongsToSomeoneElse(a.text, emails[0]!.value);
  if (emails.length && someoneElses) {
    thirdParty = true;
    notes.push(
      `I can only send emails to the address on your account${customer.email ? ` (${customer.email})` : ''}, ` +
        "so I can't email anyone else or add another address. Nothing has been changed.",
    );
  } else if (emails.length) {
    const e = emails[0]!;
    // The email word right before the address ("email: x@y", "new email is x@y") says it is theirs.
    const changeAsked = CHANGE_CUE.test(t) || /\be-?mail(?: address)?\s*(?:is|to|:|-)?\s*[^\s@]+@/.test(t);
    if (!e.valid) {
      if (changeAsked)
        notes.push(`"${e.value}" doesn't look like a complete email address. Could you double-check it?`);
    } else if (customer.email && customer.email.toLowerCase() === e.value.toLowerCase()) {
      if (changeAsked && !a.cues.sendEmail)
        notes.push(`${e.value} is already the email address we have on file, so there's nothing to change.`);
    } else if ((a.cues.sendEmail || sendsTo(a.text, e.value)) && !/\b(change|update|new|switch|replace)\b/.test(t)) {
      notes.push(
        `Emails go to the address on your account${customer.email ? ` (${customer.email})` : ''}. ` +
          `Would you like me to update your email address to ${e.value}?`,
      );
      offer = {
        kind: 'propose',
        tool: 'update_customer',
        args: { customer_id: customer.id, changes: { email: e.value } },
      };
    } else if (changeAsked) {
      changes.email = e.value;
    } else if (!a.bookingWanted && !a.problem) {
      notes.push(`Would you like me to update your email address to ${e.value}?`);
      offer = {
        kind: 'propose',
        tool: 'update_customer',
        args: { customer_id: customer.id, changes: { email: e.value } },
      };
    }
  }

  const phones = newValuesFirst(
    extractPhones(a.text),
    a.text,
    (p) => p,
    (p) => samePhone(customer.phone, p),
  );
  const phoneAsked = phones.length > 0 && (PHONE_CUE.test(t) || CHANGE_CUE.test(t));
  const partial = phones.length ? [] : incompletePhones(a.text);
  if (partial.length && PHONE_CUE.test(t) && !belongsToSomeoneElse(a.text, partial[0]!))
    notes.push(`${partial[0]} looks incomplete. Could you send me the full phone number, including the area code?`);
  if (phoneAsked && belongsToSomeoneElse(a.text, phones[0]!)) thirdParty = true;
  else if (phoneAsked) {
    const p = phones[0]!;
    if (samePhone(customer.phone, p)) {
      notes.push(`${p} is already the phone number we have on file.`);
    } else {
      changes.phone = p;
    }
  }

  const address = extractAddress(a.text);
  if (address?.ok) changes.address = address.address;
  else if (address && !address.ok) {
    notes.push(
      'Could you send me the full new address, including the street, any apartment or unit number, ' +
        `the city and the postal code? For example: ${EXAMPLE_ADDRESS}.`,
    );
  }

  const name = extractNameChange(a.text);
  if (name && name !== customer.name) changes.name = name;

  const note = extractNoteRequest(a.text);
  if (note) changes.notes = note;

  const prefs: PreferenceChanges = note ? {} : extractPreferences(a.text);
  // Evidence required: a question that mentions a pet or a time of day, or taking a request back while
  // saying how they'll be in touch, asks for no change of their standing preferences.
  if (!EXPLICIT_UPDATE.test(t) && (a.infoQuestion || a.cues.question)) {
    delete prefs.pets;
    delete prefs.preferred_time;
    delete prefs.contact;
    delete prefs.eco_products;
  }
  if (a.cues.withdraw && !/\b(?:contact|text|call|reach|email|e-mail) (?:me|us)\b|\bprefer/.test(t))
    delete prefs.contact;
  if (bookingInMessage || a.bookingWanted || a.rescheduleWanted) {
    // In a booking message these are notes for the crew, not standing preferences.
    delete prefs.pets;
    delete prefs.eco_products;
    delete prefs.preferred_time;
  }
  if (a.cues.sendEmail) delete prefs.contact;
  if (Object.keys(prefs).length) changes.preferences = prefs;

  return {
    ...(Object.keys(changes).length ? { changes } : {}),
    notes,
    ...(offer ? { offer } : {}),
    ...(thirdParty ? { thirdParty: true as const } : {}),
  };
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
  const old = (v: T) => {
    const at = text.indexOf(raw(v));
    const before = normalize(text.slice(Math.max(0, at - 40), at));
    return (
      onFile(v) ||
      OLD_VALUE_BEFORE.test(before) ||
      /^[^.!?]{0,3}\s*(?:is (?:old|wrong|out of date)|anymore|no longer)/.test(
        normalize(text.slice(at + raw(v).length, at + raw(v).length + 30)),
      )
    );
  };
  return [...values.filter((v) => !old(v)), ...values.filter(old)];
}

const THIRD_PARTY = new RegExp(
  String.raw`\b(?:his|her|their|him|them|landlord|landlady|husband|wife|partner|mom|mum|dad|mother|father|son|` +
    String.raw`daughter|sister|brother|friend|neighbou?r|boss|colleague|tenant|roommate|accountant|assistant)\b`,
);

/** A value that the sentence gives as someone else's ("email my landlord at x@y", "his is x@y"). */
function belongsToSomeoneElse(text: string, value: string): boolean {
  const at = text.indexOf(value);
  if (at < 0) return false;
  const sentenceStart =
    Math.max(text.lastIndexOf('.', at - 2), text.lastIndexOf('!', at), text.lastIndexOf('?', at)) + 1;
  const before = normalize(text.slice(sentenceStart, at));
  return THIRD_PARTY.test(before) && !/\bmy (?:new |own )?(?:e-?mail|number|phone)\b/.test(before);
}

const NOTE_REQUEST = new RegExp(
  String.raw`\b(?:add|put|leave|make|save|keep) (?:a )?note(?: to| on| in)?(?: my| the)?` +
    String.raw`(?: account| file| record| profile)?(?:\s*(?:that|saying|:|-))?\s+(.+)`,
  'i',
);

/** "Add a note to my account that…", "put a note on file: …": the note's text. */
export function extractNoteRequest(text: string): string | undefined {
  const m =
    NOTE_REQUEST.exec(text) ??
    /\bnote (?:on|to) (?:my|the) (?:account|file|record)(?:\s*(?:that|:|-))?\s+(.+)/i.exec(text);
  const note = m?.[1]?.trim().replace(/[.!\s]+$/, '');
  return note && note.length >= 3 ? capitalize(note).slice(0, 2000) : undefined;
}

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
