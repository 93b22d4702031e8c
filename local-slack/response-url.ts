// response_url endpoint: replace/delete the source message, or reply ephemerally/in channel.
import { isObj } from './block-kit-elements.js';
import { validateMessageContent } from './block-kit.js';
import { nextTs } from './ids.js';
import type { Block } from './types.js';
import { postBotMessage } from './web-api-chat.js';
import { withGeneratedIds, type Workspace } from './workspace.js';

// Slack: a response_url works up to 5 times within 30 minutes.
const MAX_USES = 5;
const LIFETIME_MS = 30 * 60 * 1000;

export interface HttpReply {
  status: number;
  body: string;
}

const reply = (status: number, body: Record<string, unknown>): HttpReply => ({ status, body: JSON.stringify(body) });

export function handleResponseUrl(ws: Workspace, id: string, raw: string): HttpReply {
  const target = ws.responseUrls.get(id);
  if (!target || Date.now() - target.createdAt > LIFETIME_MS) return reply(404, { ok: false, error: 'expired_url' });
  if (target.uses >= MAX_USES) return reply(404, { ok: false, error: 'used_url' });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return reply(400, { ok: false, error: 'invalid_payload' });
  }
  if (!isObj(body)) return reply(400, { ok: false, error: 'invalid_payload' });
  target.uses += 1;

  const list = target.ephemeral ? ws.ephemeral : ws.allMessages(target.channel);
  const original = list.find(
    (m) => m.ts === target.messageTs && (!target.ephemeral || m.ephemeral_for === target.userId),
  );

  if (body.delete_original === true) {
    if (!original) return reply(404, { ok: false, error: 'message_not_found' });
    list.splice(list.indexOf(original), 1);
    return reply(200, { ok: true });
  }

  const invalid = validateMessageContent(body);
  if (invalid) return reply(400, { ...invalid });
  const text = typeof body.text === 'string' ? body.text : '';
  const blocks = Array.isArray(body.blocks) ? withGeneratedIds(body.blocks as Block[]) : undefined;

  if (body.replace_original === true) {
    if (!original) return reply(404, { ok: false, error: 'message_not_found' });
    // Replacing is wholesale: what the response omits is gone.
    original.text = text;
    if (blocks) original.blocks = blocks;
    else delete original.blocks;
    return reply(200, { ok: true });
  }

  const channel = ws.channels.get(target.channel);
  if (!channel) return reply(404, { ok: false, error: 'channel_not_found' });
  const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : undefined;
  if (body.response_type === 'in_channel') {
    postBotMessage(ws, channel, { text, blocks, thread_ts: threadTs });
  } else {
    ws.ephemeral.push({
      type: 'message',
      channel: channel.id,
      ts: nextTs(),
      team: ws.id.teamId,
      text,
      user: ws.id.botUserId,
      bot_id: ws.id.botId,
      app_id: ws.id.appId,
      ephemeral_for: target.userId,
      ...(blocks ? { blocks } : {}),
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
  }
  return reply(200, { ok: true });
}
