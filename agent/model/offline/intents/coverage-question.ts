import type { PlanContext } from '../../../plan-context.js';
import type { Analysis } from '../analysis/analyze.js';
import { matchServices } from '../analysis/services.js';
import { contentWords, normalize, splitSentences } from '../analysis/text.js';
import { answerFromKb } from '../replies/knowledge.js';
import { UNINFORMATIVE } from '../replies/question-terms.js';
import type { Offer } from '../conversation.js';
import type { PlannedCall } from './turn.js';

/** Asking whether putting it right is free or covered ("can they come back and do it for free?"). */
const COVERAGE_Q = new RegExp(
  String.raw`\b(?:for free|free of charge|at no (?:cost|charge)|no charge|without (?:paying|a charge|charge)|` +
    '(?:is|would|will) (?:that|it|this) (?:be )?covered|covered by|' +
    String.raw`under (?:the|your) (?:guarantee|warranty))\b`,
);
/** A clause saying something is not covered ("while an oven interior on a standard cleaning does not"). */
const EXCLUSION = /\b(?:is not|isn't|are not|aren't|does not|doesn't|do not|don't|not (?:included|covered|part of))\b/;

/**
 * "they skipped inside the oven on my regular clean, can they come back and do it for free?": a complaint that asks
 * whether the guarantee covers it, where the help centre's passage says that very thing is not covered (it names
 * what the customer complains about and, if they name one, their service). The answer is what they asked for; the
 * ticket is offered, not filed, since the manager would only be asked to refuse it.
 */
export function coverageAnswer(
  a: Analysis,
  ctx: PlanContext,
  ticket: PlannedCall,
): { text: string; offer: Offer } | undefined {
  const t = normalize(a.text);
  if (!a.cues.question || !COVERAGE_Q.test(t) || ticket.args.category !== 'complaint') return undefined;
  const kb = answerFromKb(a.text, ctx);
  if (!kb) return undefined;
  const serviceWords = new Set(ctx.services.flatMap((s) => [...contentWords(s.name)]));
  const named = a.services.matches;
  const about = [...contentWords(a.text)].filter((w) => !UNINFORMATIVE.has(w) && !serviceWords.has(w));
  const quote = /"([\s\S]*)"/.exec(kb.text)?.[1] ?? '';
  // The clause that excludes it names what they complain about and, if they name one, their service.
  const excludes = splitSentences(quote)
    .flatMap((x) => x.split(/,\s+/))
    .some((clause) => {
      const ws = contentWords(clause);
      if (!EXCLUSION.test(clause.toLowerCase()) || !about.some((w) => ws.has(w))) return false;
      const there = matchServices(clause, ctx.services).matches;
      return !named.length || named.some((n) => there.some((x) => x.id === n.id));
    });
  if (!excludes) return undefined;
  const answer = kb.text.replace(/ (?:Would you like me to book|Is there anything else)[\s\S]*$/, '');
  return {
    text:
      `${answer}\n\nIf you would still like our team to look at it, just say so and I will pass it to them ` +
      'as a support ticket.',
    offer: { kind: 'propose', tool: ticket.name, args: ticket.args },
  };
}
