import type { PlanContext } from '../../../plan-context.js';
import { detectCues } from '../analysis/cues.js';
import { chatSentences, normalize } from '../analysis/text.js';
import { answerFromKb } from './knowledge.js';

/** Words that ask for information wherever they stand in a sentence ("also whats ur refund timeline"). */
const ASKS = /\?|\b(?:what|whats|what's|how|when|whens|why|which|is there|are there|do you|does)\b/;

/**
 * "do i have any open tickets? also whats ur refund timeline usually": the record answers the first question,
 * the help centre the one beside it. Empty when no other sentence asks anything or no article answers it.
 */
export function answerBesideLookup(text: string, ctx: PlanContext): string {
  const others = chatSentences(text).filter((s) => !detectCues(s).lookup && ASKS.test(normalize(s)));
  if (!others.length) return '';
  const kb = answerFromKb(others.join(' '), ctx);
  return kb ? kb.text.replace(/ (Would you like me to book|Is there anything else)[\s\S]*$/, '') : '';
}
