// Events API `event_callback` envelopes, shaped like the ones Slack POSTs to the Request URL.
import { newEventId } from './ids.js';
import type { WorkspaceIdentity } from './workspace.js';

export interface Envelope {
  token: string;
  team_id: string;
  api_app_id: string;
  event: Record<string, unknown>;
  type: 'event_callback';
  event_id: string;
  event_time: number;
  authorizations: {
    enterprise_id: null;
    team_id: string;
    user_id: string;
    is_bot: true;
    is_enterprise_install: false;
  }[];
  is_ext_shared_channel: false;
  event_context: string;
}

/** Deprecated verification token; Slack still sends one, apps must not rely on it. */
export const VERIFICATION_TOKEN = 'local-slack-verification-token';

export function envelope(id: WorkspaceIdentity, event: Record<string, unknown>): Envelope {
  return {
    token: VERIFICATION_TOKEN,
    team_id: id.teamId,
    api_app_id: id.appId,
    event,
    type: 'event_callback',
    event_id: newEventId(),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { enterprise_id: null, team_id: id.teamId, user_id: id.botUserId, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(`${id.teamId}:${event.channel ?? ''}`).toString('base64url')}`,
  };
}
