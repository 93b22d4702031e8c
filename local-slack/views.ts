// Modal and App Home view records: creation, in-place updates and the modal stack.
import { slackError, type SlackError, validateView } from './block-kit.js';
import { newViewHash, newViewId } from './ids.js';
import type { Block, StoredView, ViewStateValues } from './types.js';
import { withGeneratedIds, type Workspace } from './workspace.js';

type Raw = Record<string, unknown>;
type PlainText = { type: 'plain_text'; text: string; emoji?: boolean };

/** Slack allows at most three modals stacked at once. */
export const MAX_STACK = 3;

export function checkView(raw: unknown, expected: 'modal' | 'home'): SlackError | undefined {
  const errors = validateView(raw, expected);
  return errors.length ? slackError('invalid_arguments', errors) : undefined;
}

export function externalIdTaken(ws: Workspace, externalId: unknown, exceptId?: string): boolean {
  if (typeof externalId !== 'string' || !externalId) return false;
  for (const v of ws.views.values()) if (v.external_id === externalId && v.id !== exceptId) return true;
  return false;
}

export function createView(ws: Workspace, raw: Raw, userId: string, previous?: StoredView): StoredView {
  const id = newViewId();
  const view: StoredView = {
    id,
    team_id: ws.id.teamId,
    type: raw.type as 'modal' | 'home',
    blocks: [],
    private_metadata: '',
    callback_id: '',
    external_id: '',
    state: { values: {} },
    hash: '',
    clear_on_close: false,
    notify_on_close: false,
    previous_view_id: previous?.id ?? null,
    root_view_id: previous?.root_view_id ?? id,
    app_id: ws.id.appId,
    app_installed_team_id: ws.id.teamId,
    bot_id: ws.id.botId,
    user_id: userId,
  };
  applyContent(view, raw);
  ws.views.set(id, view);
  return view;
}

/** Replaces what the app controls; id, stack links and still-matching input state survive, like in Slack. */
export function applyContent(view: StoredView, raw: Raw): void {
  const blocks = withGeneratedIds((raw.blocks as Block[]) ?? []);
  view.blocks = blocks;
  view.private_metadata = (raw.private_metadata as string) ?? '';
  view.callback_id = (raw.callback_id as string) ?? '';
  view.external_id = (raw.external_id as string) ?? '';
  view.clear_on_close = raw.clear_on_close === true;
  view.notify_on_close = raw.notify_on_close === true;
  if (view.type === 'modal') {
    view.title = raw.title as PlainText;
    view.submit = (raw.submit as PlainText | undefined) ?? null;
    view.close = (raw.close as PlainText | undefined) ?? null;
  }
  view.state = { values: keepMatchingState(view.state.values, blocks) };
  view.hash = newViewHash();
  delete view.errors;
  delete view.failure;
}

function keepMatchingState(values: ViewStateValues, blocks: Block[]): ViewStateValues {
  const out: ViewStateValues = {};
  for (const b of blocks) {
    const el = b.element as { action_id?: string } | undefined;
    const prev = b.block_id && el?.action_id ? values[b.block_id]?.[el.action_id] : undefined;
    if (b.block_id && el?.action_id && prev) out[b.block_id] = { [el.action_id]: prev };
  }
  return out;
}

/** The view as Slack sends it to the app (local bookkeeping stripped). */
export function publicView(v: StoredView): Record<string, unknown> {
  const { user_id: _u, errors: _e, failure: _f, ...rest } = v;
  return rest;
}

export function pushModal(ws: Workspace, userId: string, view: StoredView): void {
  ws.modalStacks.set(userId, [...(ws.modalStacks.get(userId) ?? []), view.id]);
}

export function popModal(ws: Workspace, userId: string): void {
  const stack = ws.modalStacks.get(userId) ?? [];
  const top = stack.pop();
  if (top) ws.dropViews([top]);
  if (stack.length) ws.modalStacks.set(userId, stack);
  else ws.modalStacks.delete(userId);
}

export function clearModals(ws: Workspace, userId: string): void {
  ws.dropViews(ws.modalStacks.get(userId) ?? []);
  ws.modalStacks.delete(userId);
}
