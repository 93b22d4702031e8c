import { contentWords, splitSentences, stem } from '../analysis/text.js';
import { UNINFORMATIVE } from './question-terms.js';

/** A sentence about what something costs. */
const FEE_SENTENCE = /\b(?:fees?|free|charged?|costs?|pay|penalt(?:y|ies))\b/i;

/** Words of when and how much: the dimensions the rule itself speaks to, whatever words it uses for them. */
const RULE_DIMENSIONS = new Set(
  [
    'ahead',
    'advance',
    'notice',
    'early',
    'earlier',
    'late',
    'later',
    'before',
    'prior',
    'within',
    'day',
    'hour',
    'week',
    'morning',
    'night',
    'evening',
    'same',
    'fee',
    'charge',
    'cost',
    'pay',
    'free',
    'owe',
    'penalty',
  ].map(stem),
);

/**
 * A fee question with a condition the change policy's general rule does not speak to ("I cancelled three days
 * ahead but it was only approved the day before"): the help-centre passage that states the fee under that very
 * condition answers it, the rule alone does not. True when a sentence of the quoted passage is about the fee
 * and holds a word of the question that the rule's text lacks.
 */
export function answersBeyondPolicy(question: string, policy: string, passage: string): boolean {
  const rule = contentWords(policy);
  const extra = [...contentWords(question)].filter(
    (w) => !rule.has(w) && !RULE_DIMENSIONS.has(w) && !UNINFORMATIVE.has(w) && !/\d/.test(w),
  );
  if (!extra.length) return false;
  return splitSentences(passage).some((s) => {
    if (!FEE_SENTENCE.test(s)) return false;
    const own = contentWords(s);
    return extra.some((w) => own.has(w));
  });
}
