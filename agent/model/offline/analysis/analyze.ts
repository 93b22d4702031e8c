import type { BaseMessage } from '@langchain/core/messages';
import type { PlanContext } from '../../../plan-context.js';
import { aiBeforeLastCustomer, findBaseBooking, type BaseBooking } from '../conversation.js';
import { detectCues, isInformationQuestion, requestPart, type Cues } from './cues.js';
import { damageIsTheJob, reportsProblem, wantsTicket } from './entities.js';
import { matchServices, type ServiceMatch } from './services.js';
import { messageText, normalize } from './text.js';
import { extractWhen, type WhenMention } from './when.js';

/** What one customer message says, read once: the intent planners decide from this. */
export interface Analysis {
  text: string;
  cues: Cues;
  when: WhenMention;
  services: ServiceMatch;
  problem: boolean;
  explicitTicket: boolean;
  infoQuestion: boolean;
  base: BaseBooking | undefined;
  bookingWanted: boolean;
  rescheduleWanted: boolean;
  /** Our previous message asked for booking details ("I'd be happy to book … which day?"). */
  answersBookingQuestion: boolean;
}

const HYPOTHETICAL = new RegExp(
  String.raw`\b(` +
    [
      'what if|what happens|in case|if (?:a|the|your|you|someone|something|my|i)',
      'are you (?:insured|covered)|do you cover',
      'is there (?:a|an|any) (?:extra |additional )?(?:fee|charge|surcharge|cost)',
      'policy|how do(?:es)? (?:i|you|it) (?:handle|work)|would you',
    ].join('|') +
    String.raw`)\b`,
);

export function analyze(messages: BaseMessage[], ctx: PlanContext, text: string): Analysis {
  const cues = detectCues(text);
  const when = extractWhen(text, ctx.now, ctx.timeZone);
  const services = matchServices(text, ctx.services);
  const infoQuestion = isInformationQuestion(text) || (cues.question && !cues.book.strong && !cues.book.weak);
  // Only information questions ("how much is it?"), nothing asked of us: never a booking.
  const request = requestPart(text);
  const infoOnly = !request.trim() || (cues.question && !cues.book.strong && !detectCues(request).book.weak);
  const weak = Boolean(request.trim()) && detectCues(request).book.weak;
  const t = normalize(text);
  const explicitTicket = wantsTicket(text);
  // "Can someone patch a hole in my wall Tuesday at 9?" names the job, and "I spilled wine on my
  // carpet, do you do stain removal?" asks a question: neither reports anything we did.
  const repairJob =
    damageIsTheJob(text) && ((services.matches.length === 1 && (cues.book.strong || cues.book.weak)) || cues.question);
  const problem = (reportsProblem(text) && !(cues.question && HYPOTHETICAL.test(t)) && !repairJob) || explicitTicket;
  const base = findBaseBooking(messages, ctx);
  const hasWhen = Boolean(when.date || when.time || when.ambiguous || when.hint || when.vague);
  const changeCue = cues.reschedule || cues.sameTimeNextWeek || cues.relativeShiftMinutes !== undefined;
  const rescheduleWanted =
    Boolean(base) &&
    !problem &&
    !cues.lookup &&
    ((changeCue &&
      (hasWhen ||
        services.matches.length > 0 ||
        cues.sameTimeNextWeek ||
        cues.relativeShiftMinutes !== undefined ||
        /\b(move|reschedul)/.test(t))) ||
      (hasWhen && !services.matches.length && !cues.book.strong && !infoOnly && !cues.withdraw));
  const prev = aiBeforeLastCustomer(messages);
  const answersBookingQuestion = prev >= 0 && /^I'd be happy to book\b/.test(messageText(messages[prev]).trim());
  const bookingWanted =
    !rescheduleWanted &&
    !(cues.withdraw && !hasWhen) &&
    !cues.lookup &&
    !cues.cancelBooking &&
    (problem
      ? cues.book.strong
      : cues.book.strong ||
        (!infoOnly && weak && (services.matches.length > 0 || hasWhen)) ||
        (!infoOnly && services.matches.length > 0 && Boolean(when.date || when.time || when.ambiguous)) ||
        // "tuesday at 11am" answering our "which day and time?"
        (answersBookingQuestion && !infoOnly && (hasWhen || services.matches.length > 0)));
  return {
    text,
    cues,
    when,
    services,
    problem,
    explicitTicket,
    infoQuestion,
    base,
    bookingWanted,
    rescheduleWanted,
    answersBookingQuestion,
  };
}

/** Words that say a value on file should change. */
export const CHANGE_CUE = new RegExp(
  String.raw`\b(change|changed|update|updated|new|switch|use|using|is now|now|replace|correct|set|moved|different|` +
    String.raw`instead|should be)\b|\bmy (?:e-?mail|email address)\b`,
);
export const PHONE_CUE = /\b(phone|number|cell|mobile|tel|telephone|call me|text me|reach me|contact me)\b/;
