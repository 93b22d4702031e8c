import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { linkModal } from '../../blocks/home.js';
import { noticeModal } from '../../blocks/modals.js';
import { NOT_A_MANAGER, requireManager } from '../../decisions.js';
import type { BotDeps } from '../../deps.js';
import { ACTIONS } from '../../ids.js';
import { publishHome } from '../events/app-home-opened.js';

/** App Home buttons: refresh, and open the "link a Slack user to a customer" form (managers only). */
export function register(app: App, deps: BotDeps): void {
  app.action<BlockAction<ButtonAction>>(ACTIONS.homeRefresh, async ({ ack, body, client }) => {
    await ack();
    await publishHome(deps, client, body.user.id);
  });

  app.action<BlockAction<ButtonAction>>(ACTIONS.homeLink, async ({ ack, body, client }) => {
    await ack();
    if (!(await requireManager(deps, body.user.id, { action: 'open_link_form' }))) {
      await client.views.open({ trigger_id: body.trigger_id, view: noticeModal('Not allowed', NOT_A_MANAGER) });
      return;
    }
    const customers = (
      await deps.pool.query<{ id: string; name: string }>(`SELECT id, name FROM customers ORDER BY name, id LIMIT 101`)
    ).rows;
    await client.views.open({
      trigger_id: body.trigger_id,
      view: linkModal({ userPicker: deps.userPicker, customers }),
    });
  });
}
