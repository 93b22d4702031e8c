/**
 * What moving or cancelling a booking costs, by how much notice the customer gives, as the
 * "Fees and surcharges" and "What happens after you book" help articles state it: free until
 * 24 hours before the booked start; within 24 hours moving costs a flat $25 and cancelling half
 * the service price. The tools, the cards and the replies all read the fee from here.
 */

export interface ChangeFeeRule {
  /** Applies when the booked start is less than this many hours away. */
  withinHours: number;
  /** A flat fee, in cents... */
  flatCents?: number;
  /** ...or this share of the service price, in percent. */
  percentOfPrice?: number;
  /** How the help centre words it, for cards and replies. */
  label: string;
}

export const CHANGE_POLICY = {
  reschedule: [{ withinHours: 24, flatCents: 2500, label: 'moving a visit within 24 hours of its start costs $25' }],
  cancel: [
    { withinHours: 24, percentOfPrice: 50, label: 'cancelling within 24 hours of the start costs 50% of the price' },
  ],
} as const satisfies Record<'reschedule' | 'cancel', readonly ChangeFeeRule[]>;

export type ChangeKind = keyof typeof CHANGE_POLICY;

export interface ChangeFee {
  fee_cents: number;
  /** Whole hours of notice (rounded down), from `now` to the booked start. */
  notice_hours: number;
  /** The rule that applied, or the free-change wording when none did. */
  rule: string;
}

/** The fee for a change of `kind` to a booking starting at `startsAt`, asked for at `now`. */
export function changeFee(kind: ChangeKind, o: { startsAt: Date; now: Date; priceCents: number }): ChangeFee {
  const noticeMs = o.startsAt.getTime() - o.now.getTime();
  const notice_hours = Math.max(0, Math.floor(noticeMs / 3_600_000));
  // The tightest rule that applies wins: rules are listed from the widest window to the narrowest.
  const rules: readonly ChangeFeeRule[] = CHANGE_POLICY[kind];
  const rule = [...rules]
    .sort((a, b) => a.withinHours - b.withinHours)
    .find((r) => noticeMs < r.withinHours * 3_600_000);
  if (!rule) {
    const window = Math.min(...rules.map((r) => r.withinHours));
    return { fee_cents: 0, notice_hours, rule: `free: more than ${window} hours before the start` };
  }
  const fee_cents = rule.flatCents ?? Math.round((o.priceCents * (rule.percentOfPrice ?? 0)) / 100);
  return { fee_cents, notice_hours, rule: rule.label };
}
