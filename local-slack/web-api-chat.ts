// chat.* methods: what the bot posts, edits and whispers.
import { slackError, validateMessageContent } from './block-kit.js';
import { nextTs } from './ids.js';
import type { Block, StoredMessage } from './types.js';
import { type ApiArgs, type ApiContext, type ApiResult, type Method, str, TS_PATTERN } from './web-api-args.js';
import { type Channel, withGeneratedIds, type Workspace } from './workspace.js';

interface Content {
  text?: string;
  blocks?: Block[];
  attachments?: unknown[];
  thread_ts?: string;
}

/** Stores a message from the bot; used by chat.postMessage and by in_channel response_url replies. */
export function postBotMessage(ws: Workspace, channel: Channel, c: Content): StoredMessage {
  const msg: StoredMessage = {
    type: 'message',
    channel: channel.id,
    ts: nextTs(),
    team: ws.id.teamId,
    text: c.text ?? '',
    user: ws.id.botUserId,
    bot_id: ws.id.botId,
    app_id: ws.id.appId,
    ...(c.blocks ? { blocks: withGeneratedIds(c.blocks) } : {}),
    ...(c.attachments ? { attachments: c.attachments } : {}),
  };
  if (c.thread_ts) {
    // Slack threads a reply-to-a-reply under the original parent.
    const target = ws.findMessage(channel.id, c.thread_ts);
    msg.thread_ts = target?.thread_ts ?? c.thread_ts;
    const parent = ws.findMessage(channel.id, msg.thread_ts);
    if (parent?.user) msg.parent_user_id = parent.user;
    // Posting a reply ends the assistant "is working on it" status for that thread.
    ws.statuses.delete(`${channel.id}:${msg.thread_ts}`);
  }
  return ws.addMessage(msg);
}

export function publicMessage(m: StoredMessage): Record<string, unknown> {
  const { channel: _c, ephemeral_for: _e, ...rest } = m;
  return rest;
}

function content(args: ApiArgs): Content {
  return {
    text: typeof args.text === 'string' ? args.text : undefined,
    blocks: Array.isArray(args.blocks) ? (args.blocks as Block[]) : undefined,
    attachments: Array.isArray(args.attachments) ? args.attachments : undefined,
    thread_ts: str(args, 'thread_ts'),
  };
}

function channelArg(args: ApiArgs, ctx: ApiContext, key = 'channel'): Channel | undefined {
  const ref = str(args, key);
  return ref ? ctx.ws.resolveChannel(ref) : undefined;
}

const postMessage: Method = (args, ctx) => {
  const channel = channelArg(args, ctx);
  if (!channel) return slackError('channel_not_found');
  const invalid = validateMessageContent(args);
  if (invalid) return invalid;
  const c = content(args);
  if (c.thread_ts && !TS_PATTERN.test(c.thread_ts)) {
    return slackError('invalid_thread_ts', [`${c.thread_ts} is not a valid thread_ts`]);
  }
  if (c.thread_ts && !ctx.ws.findMessage(channel.id, c.thread_ts)) {
    // Real Slack answers ok but the reply is orphaned: nobody will ever see it.
    ctx.logger.warn(`local-slack: chat.postMessage thread_ts ${c.thread_ts} matches no message in ${channel.id}`);
  }
  const msg = postBotMessage(ctx.ws, channel, c);
  return { ok: true, channel: channel.id, ts: msg.ts, message: publicMessage(msg) };
};

const update: Method = (args, ctx) => {
  const channel = channelArg(args, ctx);
  if (!channel) return slackError('channel_not_found');
  const ts = str(args, 'ts');
  const msg = ts ? ctx.ws.findMessage(channel.id, ts) : undefined;
  if (!msg) return slackError('message_not_found');
  if (msg.bot_id !== ctx.ws.id.botId || msg.user !== ctx.ws.id.botUserId) return slackError('cant_update_message');
  const invalid = validateMessageContent(args, false);
  if (invalid) return invalid;
  // Omitted fields keep their previous value; an empty blocks array removes the blocks.
  const c = content(args);
  if (c.text !== undefined) msg.text = c.text;
  if (c.blocks !== undefined) {
    if (c.blocks.length) msg.blocks = withGeneratedIds(c.blocks);
    else delete msg.blocks;
  }
  if (c.attachments !== undefined) msg.attachments = c.attachments;
  if (!msg.text && !msg.blocks?.length && !msg.attachments?.length) return slackError('no_text');
  msg.edited = { user: ctx.ws.id.botUserId, ts: nextTs() };
  return { ok: true, channel: channel.id, ts: msg.ts, text: msg.text, message: publicMessage(msg) };
};

const postEphemeral: Method = (args, ctx) => {
  const channel = channelArg(args, ctx);
  if (!channel) return slackError('channel_not_found');
  const user = str(args, 'user');
  if (!user || !ctx.ws.users.has(user)) return slackError('user_not_found');
  if (channel.is_im && channel.user !== user) return slackError('user_not_in_channel');
  const invalid = validateMessageContent(args);
  if (invalid) return invalid;
  const c = content(args);
  const msg: StoredMessage = {
    type: 'message',
    channel: channel.id,
    ts: nextTs(),
    team: ctx.ws.id.teamId,
    text: c.text ?? '',
    user: ctx.ws.id.botUserId,
    bot_id: ctx.ws.id.botId,
    app_id: ctx.ws.id.appId,
    ephemeral_for: user,
    ...(c.blocks ? { blocks: withGeneratedIds(c.blocks) } : {}),
    ...(c.thread_ts ? { thread_ts: c.thread_ts } : {}),
  };
  ctx.ws.ephemeral.push(msg);
  return { ok: true, message_ts: msg.ts };
};

const getPermalink: Method = (args, ctx) => {
  const channel = channelArg(args, ctx);
  if (!channel) return slackError('channel_not_found');
  const ts = str(args, 'message_ts');
  const msg = ts ? ctx.ws.findMessage(channel.id, ts) : undefined;
  if (!msg) return slackError('message_not_found');
  const base = `${ctx.url}/archives/${channel.id}/p${msg.ts.replace('.', '')}`;
  const permalink =
    msg.thread_ts && msg.thread_ts !== msg.ts ? `${base}?thread_ts=${msg.thread_ts}&cid=${channel.id}` : base;
  return { ok: true, channel: channel.id, permalink };
};

const deleteMessage: Method = (args, ctx) => {
  const channel = channelArg(args, ctx);
  if (!channel) return slackError('channel_not_found');
  const ts = str(args, 'ts');
  const msg = ts ? ctx.ws.findMessage(channel.id, ts) : undefined;
  if (!msg || !ts) return slackError('message_not_found');
  if (msg.bot_id !== ctx.ws.id.botId) return slackError('cant_delete_message');
  ctx.ws.removeMessage(channel.id, ts);
  return { ok: true, channel: channel.id, ts };
};

export const chatMethods: Record<string, (args: ApiArgs, ctx: ApiContext) => ApiResult> = {
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'chat.getPermalink': getPermalink,
  'chat.delete': deleteMessage,
};
