/** The approval lifecycle, as the `approvals.status` CHECK constraint has it (schema/migrations/002). */
export const APPROVAL_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'expired',
  'superseded',
  'withdrawn',
  'executing',
  'executed',
  'failed',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
