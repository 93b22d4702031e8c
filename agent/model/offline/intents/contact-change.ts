import type { PlanContext } from '../../../plan-context.js';
import { EXAMPLE_ADDRESS } from '../../../../schema/business/service-area.js';
import type { Offer } from '../conversation.js';
import { CHANGE_CUE, PHONE_CUE, type Analysis } from '../analysis/analyze.js';
import type { Cues } from '../analysis/cues.js';
import {
  digitsOf,
  extractAddress,
  extractEmails,
  extractNameChange,
  extractPhones,
  extractPreferences,
  type PreferenceChanges,
} from '../analysis/entities.js';
import { normalize } from '../analysis/text.js';

export interface UpdatePlan {
  changes?: Record<string, unknown>;
  notes: string[];
  offer?: Offer;
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

  const emails = extractEmails(a.text);
  if (emails.length) {
    const e = emails[0]!;
    const changeAsked = CHANGE_CUE.test(t) || /\be-?mail\b/.test(t);
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

  const phones = extractPhones(a.text);
  if (phones.length && (PHONE_CUE.test(t) || CHANGE_CUE.test(t))) {
    const p = phones[0]!;
    if (
      digitsOf(customer.phone) &&
      digitsOf(customer.phone).endsWith(digitsOf(p).slice(-10)) &&
      digitsOf(p).length >= 10
    ) {
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

  const prefs: PreferenceChanges = extractPreferences(a.text);
  if (bookingInMessage || a.bookingWanted || a.rescheduleWanted) {
    // In a booking message these are notes for the crew, not standing preferences.
    delete prefs.pets;
    delete prefs.eco_products;
    delete prefs.preferred_time;
  }
  if (a.cues.sendEmail) delete prefs.contact;
  if (Object.keys(prefs).length) changes.preferences = prefs;

  return { ...(Object.keys(changes).length ? { changes } : {}), notes, ...(offer ? { offer } : {}) };
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
