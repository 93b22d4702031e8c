/**
 * Who the business is, as customers and managers read it: replies, email signatures, cards and
 * tool descriptions take the name from here, so renaming the business is one edit.
 */
export const BUSINESS = {
  name: 'Brightwell Home Services',
  /** How people call it in a sentence ("a Brightwell customer"). */
  shortName: 'Brightwell',
  /** Sender of the emails the send_email tool writes. */
  emailFrom: 'Brightwell Home Services <support@brightwell.example>',
} as const;
