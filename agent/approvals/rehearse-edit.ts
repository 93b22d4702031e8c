import type { Logger } from '../../core/logger.js';
import type { CallMeta } from '../../schema/tools/call-meta.js';
import { parseToolArgs } from '../../schema/tools/catalog.js';
import { callMeta } from '../deps.js';
import type { ToolCallOutcome } from '../tool-client.js';
import { customerChangeIssue } from './fixed-customer.js';
import { LedgerError, type Approval, type ArgumentIssue } from './ledger.js';

export { CUSTOMER_FIXED } from './fixed-customer.js';

/**
 * A manager's edit is rehearsed before it is accepted, as the agent rehearses a proposal: a
 * closed Sunday, a taken slot or another customer's booking is refused while the approval is
 * still pending, instead of using the approval up and failing in front of the customer.
 */

/** Long enough for a dry run (a few queries), short enough for Slack's 3 s to answer a modal. */
export const REHEARSAL_TIMEOUT_MS = 2_000;

/** Refusals that say nothing about the arguments: the rehearsal itself could not be made. */
const NOT_ABOUT_ARGUMENTS = new Set(['internal', 'unauthenticated']);

export interface RehearsalDeps {
  /** The tool server; without one an edit can't be rehearsed, so it is refused. */
  tools?: { call(name: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> };
  logger: Logger;
  timeoutMs?: number;
}

/**
 * Check edited arguments of `approval` as they would run: the tool's schema, the approval's own
 * customer, then a dry run (rolled back) in that customer's scope. Returns the arguments to
 * record; any refusal is a LedgerError, and nothing has been recorded.
 */
export async function rehearseEdit(
  deps: RehearsalDeps,
  approval: Approval,
  edited: unknown,
): Promise<{ args: Record<string, unknown>; hash: string }> {
  const log = deps.logger.child({ thread_id: approval.thread_id, approval_id: approval.id, tool: approval.tool });
  const parsed = parseToolArgs(approval.tool, edited);
  const customer = customerChangeIssue(approval, edited);
  if (!parsed.ok || customer) {
    const issues = [...(parsed.ok ? [] : parsed.issues), ...(customer ? [customer] : [])];
    log.info({ issues: issues.map((i) => i.path) }, 'edit refused before rehearsal');
    throw new LedgerError(
      'invalid_arguments',
      `The edited arguments are not valid for ${approval.tool}.`,
      approval,
      issues,
    );
  }
  const meta = callMeta(
    { threadId: approval.thread_id, customerId: approval.customer_id },
    { approval_id: approval.id, dry_run: true },
  );
  let outcome: ToolCallOutcome;
  try {
    if (!deps.tools) throw new Error('no tool server');
    outcome = await withTimeout(
      deps.tools.call(approval.tool, parsed.args, meta),
      deps.timeoutMs ?? REHEARSAL_TIMEOUT_MS,
    );
  } catch (err) {
    log.warn({ err }, 'edit not rehearsed: tool server unavailable');
    throw unavailable(approval);
  }
  if (outcome.ok) {
    log.info('edit rehearsed');
    return { args: parsed.args, hash: parsed.hash };
  }
  if (NOT_ABOUT_ARGUMENTS.has(outcome.error.code)) {
    log.warn({ code: outcome.error.code }, 'edit not rehearsed: the tool failed');
    throw unavailable(approval);
  }
  const issues = refusalIssues(parsed.args, outcome.error);
  log.info({ code: outcome.error.code, issues: issues.map((i) => i.path) }, 'edit refused by its rehearsal');
  throw new LedgerError('invalid_arguments', outcome.error.message, approval, issues);
}

const unavailable = (approval: Approval) =>
  new LedgerError(
    'rehearsal_unavailable',
    "The edited request couldn't be checked against the calendar and records right now, so nothing was approved. " +
      'Please try again in a minute.',
    approval,
  );

/** The tool's refusal as issues on the arguments the manager edited. */
export function refusalIssues(
  args: Record<string, unknown>,
  error: { code: string; message: string; details?: Record<string, unknown> },
): ArgumentIssue[] {
  const details = error.details ?? {};
  if (error.code === 'invalid_arguments' && Array.isArray(details.issues)) {
    const issues = (details.issues as { path?: unknown; message?: unknown }[]).map((i) => ({
      path: typeof i.path === 'string' ? i.path : '',
      code: error.code,
      message: typeof i.message === 'string' ? i.message : error.message,
    }));
    if (issues.length) return issues;
  }
  const alternatives = Array.isArray(details.alternatives)
    ? (details.alternatives as Record<string, unknown>[])
    : undefined;
  return [
    {
      path: refusalPath(args, details),
      code: error.code,
      message: error.message,
      ...(alternatives ? { alternatives } : {}),
    },
  ];
}

/** The argument a refusal is about: the one its details name (`field`, else an argument's own key). */
function refusalPath(args: Record<string, unknown>, details: Record<string, unknown>) {
  // `field` names the argument the tool refused (a start time), or a changed field of an update.
  if (typeof details.field === 'string') {
    const changes = args.changes as Record<string, unknown> | undefined;
    if (changes && details.field in changes) return `changes.${details.field}`;
    if (details.field in args) return details.field;
  }
  // Details that name an argument (booking_id, service_id…) point at it; customer_id is fixed.
  const named = Object.keys(details).find((k) => k !== 'customer_id' && k in args);
  return named ?? '';
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
