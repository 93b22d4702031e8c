import { chatSentences, normalize } from './text.js';

/**
 * A question typed without its mark ("do i get anything for that or is that just how it goes"): it opens
 * with a question word or an auxiliary and its subject, unlike "do the windows friday" (a request).
 */
export const UNMARKED_QUESTION = new RegExp(
  // "… at 10? and do u charge more for weekends": a question joined on with "and", "also", "oh and".
  String.raw`^(?:(?:oh |and |also |plus |btw )*)(?:(?:how|what|whats|what's|when|where|why|which|who)\b|` +
    '(?:do|does|did|is|are|am|was|will|would|should|shall|have|has) ' +
    String.raw`(?:i|we|you|u|it|that|this|there|they|my|our|the team|someone|anyone)\b)`,
  'i',
);

/** Where the talk turns to the question: "anyway …", "my actual q: …", "so my question is …". */
const PIVOT = new RegExp(
  String.raw`(?:^|\s)(?=(?:anyway|anyways|anyhow|(?:so |but )?my (?:actual |real |main )?(?:q|question)(?: is)?:?|` +
    String.raw`question:)[\s,:])`,
  'i',
);
/** Words a sentence may open with before its question starts ("so what time…", "anyway my actual q: how…"). */
const LEAD_IN = new RegExp(
  String.raw`^(?:(?:so|anyway|anyways|anyhow|but|and|also|ok|okay|lol|btw)\b[\s,]*|` +
    String.raw`my (?:actual |real |main )?(?:question|q)\b(?: is)?:?\s*|question:\s*)+`,
  'i',
);

/** After the turn, "can i leave a key" asks too (alone, "can i get a clean friday" is a request). */
const MAY_I = /^(?:can|could) (?:i|we|you|u|someone|somebody)\b/i;

/** Whether a sentence asks: a question mark, a question's opening, or "can I …". */
export const asks = (part: string) => {
  const p = normalize(part).replace(LEAD_IN, '');
  return p.endsWith('?') || UNMARKED_QUESTION.test(p) || MAY_I.test(p);
};

/**
 * What a message asks, apart from what it tells first: "my dog ate the lockbox key this morning. anyway what
 * time do u open on saturdays" turns to its question ("anyway", "my actual q:"), so the story before is
 * context and the question decides what answers. Without such a turn the sentences around a question often
 * say what it is about ("my landlord asks if you're insured. is there anything i can show him"): undefined.
 */
export function askedPart(text: string): { question: string; context: string } | undefined {
  const t = text.trim();
  const at = t.search(PIVOT);
  if (at <= 0) return undefined;
  const before = t.slice(0, at).trim();
  const after = chatSentences(t.slice(at).trim());
  const question = after.filter(asks);
  if (!before || !question.length) return undefined;
  // "anyway", "my actual q:" only say where the question starts ("ask us anyway" is no answer to it).
  const own = question.map((p) => p.replace(LEAD_IN, '')).join(' ');
  return { question: own, context: [before, ...after.filter((p) => !asks(p))].join(' ') };
}
