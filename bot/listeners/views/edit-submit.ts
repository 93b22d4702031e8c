import type { App, ViewSubmitAction } from '@slack/bolt';
import { parseToolArgs } from '../../../schema/tools/catalog.js';
import { editFields, noticeModal, parseMetadata } from '../../blocks/modals.js';
import { argsFromSubmission, errorsForIssues, type SubmittedState } from '../../blocks/schema-form.js';
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

/**
 * Edit → Approve. The form is rebuilt into arguments (fixed values like `customer_id` come from
 * the approval in Postgres, never from the payload), validated with the tool's own schema; any
 * issue goes back inline on its input and nothing is decided. Valid: the modal closes and the
 * approval is approved with exactly these arguments.
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
    const args = argsFromSubmission(fields, state, base);
    const parsed = parseToolArgs(approval.tool, args);
    if (!parsed.ok) {
      const inputs = fields.map((f) => f.path).filter((p) => state[p]);
      deps.logger.info({ approval_id: approval.id, issues: parsed.issues }, 'edited arguments refused inline');
      await ack({ response_action: 'errors', errors: errorsForIssues(parsed.issues, inputs) });
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
