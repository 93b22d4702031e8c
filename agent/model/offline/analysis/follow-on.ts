import { visitEnd } from '../../../../schema/business/booking-conflicts.js';
import { isoInZone } from '../../../../core/time.js';

/*
 * A visit asked for "straight after" another one in the same message: it has no time of its own, it
 * starts when the other ends. Visits hold whole crew-hours (booking-conflicts.visitEnd), so a 90-minute
 * repair at noon is followed at 2 PM, not 1:30.
 */

/** "after" said of the other visit, not of a time of day ("right after lunch", "straight after 3"). */
const AFTER_IT = String.raw`(?=\s*(?:$|[.,!?;:)]|\s(?:it|that|this|the|my|our|to|so|for|and|while|once|please|at)\b))`;

const FOLLOW_ON = new RegExp(
  [
    String.raw`\b(?:straight|right|directly|immediately|just)\s+after(?:wards)?${AFTER_IT}`,
    String.raw`\bafter(?:wards)?\s+(?:it|that)\s+(?:is|'s|gets)\s+(?:done|finished)\b`,
    String.raw`\b(?:once|when)\s+(?:that|it|they|the \w+)(?:'s|'re| is| are)\s+(?:done|finished|over)\b`,
    String.raw`\bback[- ]to[- ]back\b`,
    String.raw`\b(?:following on|in the slot after|the hour after)\s+(?:from\s+)?(?:it|that)\b`,
    String.raw`\bwhile (?:they|you|the \w+|he|she|the crew)(?:'re|'s| are| is)\s+(?:there|here|over|at it)\b`,
  ].join('|'),
  'i',
);

/** Whether these words ask for a visit that follows on from another one of the same message. */
export function followsOn(text: string): boolean {
  return FOLLOW_ON.test(text.replace(/[\u2018\u2019]/g, "'"));
}

/** Where a visit that follows one starting at `startIso` of `durationMinutes` starts, in the business zone. */
export function followOnStart(startIso: string, durationMinutes: number, timeZone: string): string {
  return isoInZone(visitEnd(new Date(startIso), durationMinutes), timeZone);
}
