import type { App } from '@slack/bolt';
import type { BotDeps } from '../deps.js';
import * as decisionButtons from './actions/decision-buttons.js';
import * as homeButtons from './actions/home-buttons.js';
import * as appHomeOpened from './events/app-home-opened.js';
import * as customerMessage from './messages/customer-message.js';
import * as editSubmit from './views/edit-submit.js';
import * as linkSubmit from './views/link-submit.js';
import * as rejectSubmit from './views/reject-submit.js';

/** Every listener, one module per concern, grouped by surface. */
export function registerListeners(app: App, deps: BotDeps): void {
  for (const m of [customerMessage, decisionButtons, homeButtons, editSubmit, rejectSubmit, linkSubmit, appHomeOpened])
    m.register(app, deps);
}
