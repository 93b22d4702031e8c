import { changeLandedField } from '../analysis/own-record.js';
import { digitsOf, extractEmails, extractPhones } from '../analysis/entities.js';
import { isRecord, normalize } from '../analysis/text.js';
import type { PlannedCall } from './turn.js';

/**
 * After the lookup that answers "did my new number make it onto my account? it ends in 9921": what
 * the customer says it should be, against what is on file. The same: yes. Another value given whole:
 * the change they plainly want, proposed. Only its last digits: a question for the whole of it (the
 * next message answers it, analysis/analyze's value question).
 */
export function changeLandedFollowUp(
  customerText: string,
  lookup: unknown,
): { text: string; call?: PlannedCall } | undefined {
  const field = changeLandedField(normalize(customerText));
  const record = isRecord(lookup) && isRecord(lookup.customer) ? lookup.customer : undefined;
  if (!field || !record || field === 'address') return undefined;
  const customerId = typeof record.id === 'string' ? record.id : undefined;
  const onFile = typeof record[field] === 'string' ? (record[field] as string) : '';
  if (field === 'email') {
    const given = extractEmails(customerText).find((e) => e.valid)?.value;
    if (!given) return undefined;
    if (given.toLowerCase() === onFile.toLowerCase()) return { text: `Yes: ${given} is the email address on file.` };
    return {
      text: `It isn't on file yet: we still have ${onFile || 'no email address'}.`,
      ...(customerId
        ? { call: { name: 'update_customer', args: { customer_id: customerId, changes: { email: given } } } }
        : {}),
    };
  }
  const whole = extractPhones(customerText)[0];
  const tail = whole ? undefined : /\b(?:ends?|ending) (?:in|with) (\d{2,4})\b/.exec(normalize(customerText))?.[1];
  const given = whole ? digitsOf(whole) : tail;
  if (!given) return undefined;
  if (digitsOf(onFile).endsWith(given.slice(-10)))
    return { text: `Yes: the number on file, ${onFile}, is the one you mean.` };
  if (whole && customerId)
    return {
      text: `It isn't on file yet: we still have ${onFile || 'no phone number'}.`,
      call: { name: 'update_customer', args: { customer_id: customerId, changes: { phone: whole } } },
    };
  return {
    text:
      `It isn't on file yet: the number we have is ${onFile || 'none'}. ` +
      'What phone number should we have on your account?',
  };
}
