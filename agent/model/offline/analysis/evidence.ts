import { normalize } from './text.js';

/*
 * Evidence required: a value in a message ("555-222-8181", "40 Cliff Rd…") is written to the
 * customer's record only when their own words ask for it. The sentence that holds it is read for how
 * it stands toward acting: asked for (an imperative, "can you…", "please", or a plain statement of
 * the new value), or only asked about, said by someone else, supposed, hedged or ruled out.
 */

export type Stance =
  /** Asked for, or stated as the new value: act on it. */
  | 'request'
  /** Asked about ("is it 555-… now?"): ask whether to change it. */
  | 'question'
  /** Someone else's words ("my daughter said I should…"): ask whether to change it. */
  | 'reported'
  /** Not decided yet ("not sure yet", "we might be moving…"): nothing changes until they say so. */
  | 'hedged'
  /** A case that may not happen ("if we moved…, would…"): nothing to change. */
  | 'hypothetical'
  /** Ruled out ("no need to change my phone", "… is still good"): nothing to change. */
  | 'negated'
  /** Told as a story ("funny story, my email got hacked…"): what happened then, not what to do now. */
  | 'told';

/** The stances that still leave a wish worth asking about. */
export const worthAsking = (s: Stance) => s === 'question' || s === 'reported' || s === 'told';

const NEGATED = new RegExp(
  String.raw`\b(?:don'?t|dont|do not|no need to|never|not going to|won'?t need to|please don'?t)\s+(?:\w+\s+){0,2}?` +
    String.raw`(?:change|update|switch|replace|touch|edit|modify|remove)\b`,
);
/** The value said to be the current one: nothing to change. */
const STILL_CURRENT = new RegExp(
  String.raw`\b(?:is |are )?still (?:good|right|correct|fine|valid|the same|current|works?)\b|\bhasn'?t changed\b|` +
    // "i have everything set to email": how it is set now, said to explain a question.
    String.raw`\b(?:i|we) (?:have|'ve got|ve got|got) (?:\w+ ){0,2}set (?:to|up for|as)\b|` +
    // "i'd rather keep getting the text links": what they have now, kept.
    // A wish to keep, not "texts keep getting buried".
    String.raw`\b(?:rather|prefer to|like to|want to|wanna|happy to|just|please) keep (?:on )?` +
    String.raw`(?:getting|receiving|using|having)\b`,
);

const HYPOTHETICAL = /\b(?:what if|suppose|supposing|in case|hypothetically|if (?:i|we|my|our|someone|you)\b)/;
/** "if that's ok", "if you can": politeness around a request, not a case that may not happen. */
const POLITE_IF = new RegExp(
  String.raw`\bif (?:that'?s|thats|it'?s|its|that is|it is) ` +
    String.raw`(?:ok|okay|alright|all right|fine|possible|not too much)\b|\bif (?:you can|possible|poss)\b`,
  'g',
);

const STRONG_HEDGE = new RegExp(
  String.raw`\b(?:not sure (?:yet|about (?:it|this|that)|(?:if |whether )?i (?:want|should))|unsure|let me think|` +
    "i'?ll let you know|i will let you know|not yet|just curious|out of curiosity|thinking (?:about|of)|" +
    String.raw`considering|haven'?t decided|undecided)\b`,
);
/**
 * A sentence that opens a story: the customer recounts what happened, and a field it names ("my old email
 * got hacked") is part of the story. A value in it may still be their new one, so it is asked about.
 */
const STORY = new RegExp(
  String.raw`\b(?:(?:funny|long|true|sad|crazy|weird) story|story time|fun fact|` +
    String.raw`(?:so )?this one time|once upon a time)\b`,
);
const WEAK_HEDGE = /\b(?:might|maybe|perhaps|possibly|probably)\b/;

/** Someone else's words: "my daughter said…", "he told me…", "she thinks…". */
const REPORTED = new RegExp(
  String.raw`(?<!\b(?:i|we) )\b(?:said|says|told me|tells me|suggested|suggests|reckons|thinks|wants me to|` +
    String.raw`asked me to|mentioned)\b`,
);

/** An imperative or a request form at the start of a clause, or a "please" anywhere. */
const REQUEST_FORM = new RegExp(
  String.raw`\b(?:please|pls|plz|kindly)\b|` +
    String.raw`(?:^|[,;:-]\s*|\b(?:so|and|but|also|then|ok|okay|yes|hi|hey|hello|oh)\s+)` +
    '(?:(?:can|could|would|will) (?:you|u|ya|someone|somebody)|is it possible|would it be possible|' +
    "(?:can|could|may) (?:i|we) (?:get|have)|i'?d like you to|i want you to|i need you to|" +
    // "can the reminders come by text?": asks for what happens from now on.
    '(?:can|could) (?:the|my|our) [a-z]+ (?:come|go|arrive|be sent|be switched|be changed)|' +
    String.raw`(?:change|update|switch|use|put|pop|add|set|replace|correct|fix|note|save|swap|make)\b)`,
);
const QUESTION_START =
  /^(?:what|whats|when|where|why|how|who|which|do|does|did|is|are|was|were|will|should|am|have|has)\b/;

/** The sentence of `text` that holds the character at `index`. */
export function sentenceAt(text: string, index: number): string {
  const bounds = [...text.matchAll(/(?<=[.!?])\s+|\n+/g)].map((m) => m.index + m[0].length);
  const start = Math.max(0, ...bounds.filter((b) => b <= index));
  const end = Math.min(text.length, ...bounds.filter((b) => b > index));
  return text.slice(start, end);
}

const CLAUSE_BREAK = /,\s+|;\s*|\s+(?:but|so|and then)\s+/;

/** The clause of a sentence that holds `needle` (commas, "but", "so" and "and then" split clauses). */
function clauseWith(sentence: string, needle: string): string {
  const parts = sentence.split(CLAUSE_BREAK);
  return parts.find((p) => p.includes(needle)) ?? sentence;
}

/**
 * "…we adopted a puppy!! anyway my actual q: …": what comes before is said in passing, the point
 * is what follows. Mentions in the aside ask for nothing (they are left until the customer asks).
 */
const ACTUAL_POINT = new RegExp(
  String.raw`\b(?:anyway|anyways|but|so)?,?\s*(?:my|the) (?:actual|real|main) ` +
    String.raw`(?:q|question|reason (?:i'?m|for) (?:writing|messaging|asking))\b`,
  'i',
);
const inAside = (text: string, index: number): boolean => {
  const m = ACTUAL_POINT.exec(text);
  return m !== null && index < m.index;
};

/** How the sentence around `value` (a substring of `text`) stands toward changing it. */
export function stanceOfValue(text: string, value: string): Stance {
  const at = text.indexOf(value);
  if (at < 0) return 'request';
  if (inAside(text, at)) return 'hedged';
  const sentence = sentenceAt(text, at);
  return stanceOf(normalize(sentence), normalize(clauseWith(sentence, value)));
}

/** "can you fix it", "could you change it on my account, please?": the change of what was just named. */
const CHANGE_OF_IT = new RegExp(
  String.raw`\b(?:change|update|correct|fix|switch|replace|swap)(?: (?:it|that|this|them|(?:the )?one))?` +
    String.raw`(?: (?:on|in) (?:my|the|our) (?:account|file|record|details)| on (?:file|here|there))?` +
    String.raw`,?(?: please| pls)?[.!?]*$`,
);

/**
 * Whether the message says the change of what `field` names, not only of something beside it: "my old email
 * got hacked, had to switch everything over" changes everything but the record. A clause names both, or
 * a clause is the change of "it" ("my email is wrong. can you fix it?").
 */
export function changeOf(text: string, field: RegExp, change: RegExp): boolean {
  const clauses = normalize(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .flatMap((s) => s.split(CLAUSE_BREAK));
  return clauses.some((c) => (field.test(c) && change.test(c)) || CHANGE_OF_IT.test(c));
}

/**
 * How a sentence stands toward acting on it; `clause` is the part holding the value (the whole
 * sentence when there is none). A request form wins over a report ("my wife says so, so please…").
 */
export function stanceOf(sentence: string, clause = sentence): Stance {
  if (NEGATED.test(clause) || STILL_CURRENT.test(clause)) return 'negated';
  const plain = sentence.replace(POLITE_IF, ' ');
  if (HYPOTHETICAL.test(clause.replace(POLITE_IF, ' '))) return 'hypothetical';
  if (STRONG_HEDGE.test(plain)) return 'hedged';
  if (REQUEST_FORM.test(plain)) return 'request';
  if (STORY.test(plain)) return 'told';
  // A case set up elsewhere in the sentence ("if we moved, would … go up?") without a request beside it.
  if (HYPOTHETICAL.test(plain)) return 'hypothetical';
  if (REPORTED.test(clause)) return 'reported';
  if (WEAK_HEDGE.test(plain)) return 'hedged';
  if (/\?\s*$/.test(sentence) || QUESTION_START.test(sentence)) return 'question';
  return 'request';
}

/**
 * The stance of the message toward what `mention` matches (a preference's words): a request when
 * any sentence mentioning it asks for it, otherwise the first such sentence's stance.
 */
export function stanceOfMention(text: string, mention: RegExp): Stance {
  const point = ACTUAL_POINT.exec(text);
  if (point && !mention.test(normalize(text.slice(point.index)))) return 'hedged';
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((s) => mention.test(normalize(s)));
  if (!sentences.length) return 'request';
  const stances = sentences.map((s) => {
    const t = normalize(s);
    return stanceOf(t, t.split(CLAUSE_BREAK).find((c) => mention.test(c)) ?? t);
  });
  return stances.includes('request') ? 'request' : stances[0]!;
}
