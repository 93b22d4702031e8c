import type { App, ViewSubmitAction } from '@slack/bolt';
import { LedgerError, type ArgumentIssue } from '../../../agent/approvals/ledger.js';
import { parseToolArgs } from '../../../schema/tools/catalog.js';
import { editFields, noticeModal, parseMetadata } from '../../blocks/modals.js';
import {
  argsFromSubmission,
  datetimeIssues,
  errorsForIssues,
  type FormField,
  type SubmittedState,
} from '../../blocks/schema-form.js';
import { loadCardContext } from '../../cards.js';
import { NOT_FOUND, decideAndReport, guardDecision, refuseInModal } from '../../decisions.js';
import type { BotDeps } from '../../deps.js';
import { VIEWS } from '../../ids.js';

function deletePath(obj: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const parents: Record<string, unknown>[] = [obj];
  let cur: unknown = obj;
  for (const k of keys.slice(0, -1)) {
    if (!cur || typeof cur !== 'object') return;
    cur = (cur as Record<string, unknown>)[k];
    if (!cur || typeof cur !== 'object') return;
    parents.push(cur as Record<string, unknown>);
  }
  delete parents[parents.length - 1]![keys[keys.length - 1]!];
  // Drop objects the deletion left empty, so "address: {}" doesn't reach the schema.
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i]!).length) break;
    delete parents[i - 1]![keys[i - 1]!];
  }
}

/** The inputs an issue can be shown on: a field's own block (a date-time's is its day). */
const inputsOf = (fields: FormField[], state: SubmittedState) => fields.map((f) => f.path).filter((p) => state[p]);

/**
 * Edit → Approve. The form is rebuilt into arguments (fixed values like `customer_id` come from
 * the approval in Postgres, never from the payload), validated with the tool's own schema, then
 * rehearsed by the tool in the customer's scope (a taken or closed time is refused here, with the
 * free times nearby). Any issue goes back inline on its input and nothing is decided: the approval
 * stays pending. Accepted: the modal closes and the approval is approved with exactly these
 * arguments (`decide` rehearses them once more as it records them).
 */
export function register(app: App, deps: BotDeps): void {
  app.view<ViewSubmitAction>(VIEWS.edit, async ({ ack, body, view, client }) => {
    const user = body.user.id;
    const meta = parseMetadata(view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'update', view: noticeModal('Edit and approve', NOT_FOUND) });
      return;
    }
    const decision = { user, approvalId: meta.approval_id, action: 'edit_submit' };
    const approval = await guardDecision(deps, decision, refuseInModal(ack, 'Edit and approve'));
    if (!approval) return;
    const ctx = await loadCardContext(deps.pool, approval, deps.timeZone);
    const fields = editFields(approval.tool, ctx);
    const state = view.state.values as unknown as SubmittedState;
    const base = structuredClone(approval.args);
    for (const f of fields) if (state[f.path]) deletePath(base, f.path);
    const args = argsFromSubmission(fields, state, base, { timeZone: deps.timeZone });
    const picks = datetimeIssues(fields, state, deps.timeZone);
    const parsed = parseToolArgs(approval.tool, args);
    const log = deps.logger.child({ approval_id: approval.id, thread_id: approval.thread_id });
    const refuse = async (issues: ArgumentIssue[], why: string) => {
      log.info({ issues: issues.map((i) => ({ path: i.path, code: i.code })) }, why);
      await ack({ response_action: 'errors', errors: errorsForIssues(issues, inputsOf(fields, state)) });
    };
    if (picks.length || !parsed.ok) {
      // A picked time that can't be one explains the schema's "required" on the same field.
      const schema = parsed.ok ? [] : parsed.issues.filter((i) => !picks.some((p) => p.path === i.path));
      await refuse([...picks, ...schema], 'edited arguments refused inline');
      return;
    }
    try {
      await deps.agent.rehearseEdit({ approvalId: approval.id, args: parsed.args });
    } catch (err) {
      if (err instanceof LedgerError && err.code === 'invalid_arguments') {
        await refuse(err.issues ?? [{ path: '', message: err.message }], 'edited arguments refused by the rehearsal');
        return;
      }
      if (!(err instanceof LedgerError && err.code === 'rehearsal_unavailable'))
        log.error({ err }, 'edit rehearsal failed');
      // Not approved unrehearsed: the manager can submit the same form again in a moment.
      const message =
        err instanceof LedgerError
          ? err.message
          : "These values couldn't be checked right now, so nothing was approved. Please try again in a minute.";
      await refuse([{ path: '', message }], 'edit not rehearsed; refused inline');
      return;
    }
    await ack();
    await decideAndReport(deps, client, {
      approvalId: approval.id,
      user,
      decision: 'approve',
      args: parsed.args,
      channel: approval.card_channel ?? deps.channels.managers,
    });
  });
}
