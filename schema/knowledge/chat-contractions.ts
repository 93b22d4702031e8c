/*
 * Chat drops apostrophes: "ill be at work" is "I'll be at work", not someone ill. Read as "ill", it
 * pulls in the illness articles (and "I'll", once its apostrophe is stripped, reads the same). Both the
 * help-centre search and the offline planner read a question's words through this, so they agree.
 */

/** What follows "I'll": a verb, or an adverb before one. */
const AFTER_I_WILL = new Set(
  (
    'be have need get take call pay send do make try let leave probably just still definitely also see book ' +
    'bring want give come check wait reschedule cancel text email drop put go keep ask stay look hang tell ' +
    'sort pick prob def only never always most likely rather'
  ).split(' '),
);

const I_WILL = /\b(i['’]ll|ill)(\s+)([a-z]+)/gi;

/** The text with "I'll …" and "ill <verb> …" written out as "i will …"; any other "ill" (sick) is kept. */
export function readContractions(text: string): string {
  return text.replace(I_WILL, (whole, form: string, space: string, next: string) =>
    form.length === 4 || AFTER_I_WILL.has(next.toLowerCase()) ? `i will${space}${next}` : whole,
  );
}
