import type { PlanContext } from '../../../plan-context.js';
import type { Analysis } from '../analysis/analyze.js';
import { UNMARKED_QUESTION } from '../analysis/asked-part.js';
import { isInformationQuestion } from '../analysis/cues.js';
import { chatSentences, clip, normalize } from '../analysis/text.js';
import { feePolicyText } from '../replies/booking-changes.js';
import { answersBeyondPolicy } from '../replies/beyond-policy.js';
import { closedDayNote } from './booking-calendar.js';
import { answerFromKb, answerFromServices, kbCaveat, noAnswerReply } from '../replies/knowledge.js';
import { PRICE_Q } from '../replies/question-terms.js';
import { denyReply, farewellReply, greetingReply, thanksReply, unknownReply } from '../replies/templates.js';
import { say, type PlannedTurn } from './turn.js';

/**
 * A fee question that adds a condition the change policy is silent on, which the help centre's answer states the
 * fee under ("if I'm ill on the day"): the article answers it, not the policy.
 */
export function helpCentreAnswersFee(
  a: Analysis,
  ctx: PlanContext,
  kb: ReturnType<typeof answerFromKb> = answerFromKb(a.text, ctx),
): boolean {
  if (!a.feeQuestion || !kb) return false;
  const quoted = /"([\s\S]*)"/.exec(kb.text)?.[1] ?? '';
  return answersBeyondPolicy(a.text, feePolicyText(a.feeQuestion), quoted);
}

/** A problem named by its topic alone: "there's a problem with my bill", "i have an issue with my booking". */
const TOPIC_ONLY_PROBLEM = new RegExp(
  String.raw`^(?:(?:hi|hey|hello|um|so|ok|okay)\b[\s,]*)*(?:there'?s|there is|i have|i'?ve got|ive got|got|i got) ` +
    String.raw`(?:a |an |some )?(?:problem|issue|query|question) (?:with|about|on) (?:my|the|our) ` +
    String.raw`(bill|invoice|charge|receipt|payment|booking|account|visit|cleaning|appointment)[\s.!?]*$`,
);

/** No tool to call: answer from the help centre or the catalogue, or chat (greetings, thanks, "what do you mean?"). */
export function answerOrChat(a: Analysis, ctx: PlanContext): PlannedTurn {
  const t = normalize(a.text);
  const words = t.split(' ').length;
  const smallTalk = words <= 8 && !a.cues.question;
  if (smallTalk && a.cues.thanks) return say(thanksReply());
  if (smallTalk && a.cues.farewell) return say(farewellReply());
  if (smallTalk && a.cues.greeting && words <= 5) return say(greetingReply(ctx));
  if (a.cues.deny) return say(denyReply());
  if (a.cues.affirm) return say('Great! What can I help you with?');
  // "there's a problem with my bill": what is wrong is the whole of it, so it is asked for before anything else.
  const topic = TOPIC_ONLY_PROBLEM.exec(t)?.[1];
  if (topic)
    return say(
      `I'm sorry to hear that. What's wrong with your ${topic}? Tell me what you're seeing and I'll help or pass ` +
        'it to our team.',
    );
  const kb = answerFromKb(a.text, ctx);
  // What a change costs is the change policy's (schema/business), not a passage to search for, unless the
  // question adds a condition the rule is silent on and the help centre states the fee under it.
  if (a.feeQuestion && !helpCentreAnswersFee(a, ctx, kb))
    return say(`${feePolicyText(a.feeQuestion)} Is there anything else I can help with?`);
  const closed = a.cues.question || a.infoQuestion ? closedDayNote(a.when, ctx) : undefined;
  // The article the question found still answers the rest of it (what happens to a visit that day).
  if (closed) return say(`${closed}${kb ? `\n\n${kb.text}` : ' Is there anything else I can help with?'}`);
  const fromServices = answerFromServices(a.text, ctx);
  // "do you mount tvs? how much? do you cover <place>?": the catalogue's price too, when the article lacks it.
  // Only when a price is asked: "how long can the weekly clean be paused?" wants the pause, not the visit's length.
  const price = fromServices && PRICE_Q.test(a.text) ? /\$[\d,.]*\d/.exec(fromServices)?.[0] : undefined;
  if (kb)
    return say(
      price && !kb.text.includes(price)
        ? `${fromServices!.replace(/ Would you like[\s\S]*$/, '')}\n\n${kb.text}`
        : kb.text,
    );
  if (fromServices) return say(fromServices);
  if (a.cues.question || a.infoQuestion) {
    return say(
      noAnswerReply(ctx),
      ctx.customer ? { offer: { kind: 'ticket', question: clip(a.text, 4000) } } : undefined,
    );
  }
  if (a.cues.greeting) return say(greetingReply(ctx));
  if (a.cues.thanks) return say(thanksReply());
  return say(unknownReply());
}

/**
 * The answer to information questions asked next to a request ("How much is it? Book one for…"). Read as chat
 * (a lower-case sentence after a "?" is one of its own), a question without its mark counted too.
 */
export function sideAnswer(text: string, ctx: PlanContext): string {
  const questions = chatSentences(text)
    .map((s) => s.trim())
    .filter((s) => (s.endsWith('?') || UNMARKED_QUESTION.test(normalize(s))) && isInformationQuestion(s))
    .join(' ');
  // "How much is it?" says little on its own: then read it with the rest of the message.
  const kb = questions ? (answerFromKb(questions, ctx) ?? answerFromKb(text, ctx)) : undefined;
  if (kb) {
    const quoted = kb.text.replace(/ (Would you like me to book|Is there anything else)[\s\S]*$/, '');
    // "a handyman for an hour on fri … and whats that cost": the catalogue's price, when the article lacks it.
    const listed = PRICE_Q.test(questions) ? answerFromServices(text, ctx) : undefined;
    const price = listed ? /\$[\d,.]*\d/.exec(listed)?.[0] : undefined;
    return price && !quoted.includes(price) ? `${listed!.replace(/ Would you like[\s\S]*$/, '')}\n\n${quoted}` : quoted;
  }
  // A request the help centre limits ("above the fireplace") gets the limit quoted before it goes ahead.
  return kbCaveat(text, ctx) ?? '';
}
