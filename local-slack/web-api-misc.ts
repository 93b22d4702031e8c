// Read-only lookups, reactions and the assistant status cue.
import { slackError } from './block-kit.js';
import { publicMessage } from './web-api-chat.js';
import { type ApiArgs, type ApiContext, type ApiResult, type Method, str } from './web-api-args.js';

const authTest: Method = (_args, ctx) => {
  const bot = ctx.ws.users.get(ctx.ws.id.botUserId);
  return {
    ok: true,
    url: `${ctx.url}/`,
    team: 'Local Slack',
    user: bot?.name ?? 'bot',
    team_id: ctx.ws.id.teamId,
    user_id: ctx.ws.id.botUserId,
    bot_id: ctx.ws.id.botId,
    is_enterprise_install: false,
  };
};

const usersInfo: Method = (args, ctx) => {
  const id = str(args, 'user');
  const u = id ? ctx.ws.users.get(id) : undefined;
  if (!u) return slackError('user_not_found');
  return {
    ok: true,
    user: {
      id: u.id,
      team_id: ctx.ws.id.teamId,
      name: u.name,
      deleted: false,
      real_name: u.real_name,
      tz: 'Etc/UTC',
      tz_label: 'Coordinated Universal Time',
      tz_offset: 0,
      is_admin: false,
      is_owner: false,
      is_bot: u.is_bot === true,
      is_app_user: false,
      profile: {
        real_name: u.real_name,
        real_name_normalized: u.real_name,
        display_name: u.name,
        display_name_normalized: u.name,
        team: ctx.ws.id.teamId,
      },
    },
  };
};

const conversationsInfo: Method = (args, ctx) => {
  const ref = str(args, 'channel');
  const c = ref ? ctx.ws.resolveChannel(ref) : undefined;
  if (!c) return slackError('channel_not_found');
  if (c.is_im)
    return { ok: true, channel: { id: c.id, created: c.created, is_im: true, is_org_shared: false, user: c.user } };
  return {
    ok: true,
    channel: {
      id: c.id,
      name: c.name,
      is_channel: true,
      is_group: false,
      is_im: false,
      is_mpim: false,
      is_private: false,
      is_archived: false,
      is_general: false,
      is_member: true,
      created: c.created,
      name_normalized: c.name,
    },
  };
};

const conversationsHistory: Method = (args, ctx) => {
  const ref = str(args, 'channel');
  const c = ref ? ctx.ws.resolveChannel(ref) : undefined;
  if (!c) return slackError('channel_not_found');
  const limit = Number(args.limit ?? 100) || 100;
  const messages = ctx.ws.topLevel(c.id).slice().reverse().slice(0, limit).map(publicMessage);
  return { ok: true, messages, has_more: false, response_metadata: { next_cursor: '' } };
};

const conversationsReplies: Method = (args, ctx) => {
  const ref = str(args, 'channel');
  const c = ref ? ctx.ws.resolveChannel(ref) : undefined;
  if (!c) return slackError('channel_not_found');
  const ts = str(args, 'ts');
  const parent = ts ? ctx.ws.findMessage(c.id, ts) : undefined;
  if (!parent || !ts) return slackError('thread_not_found');
  const limit = Number(args.limit ?? 1000) || 1000;
  const messages = ctx.ws
    .thread(c.id, parent.thread_ts ?? ts)
    .slice(0, limit)
    .map(publicMessage);
  return { ok: true, messages, has_more: false, response_metadata: { next_cursor: '' } };
};

// The bot can only open a DM with one person here; multi-person DMs are not modelled.
const conversationsOpen: Method = (args, ctx) => {
  const users = (str(args, 'users') ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const ref = str(args, 'channel');
  if (ref) {
    const c = ctx.ws.resolveChannel(ref);
    return c?.is_im ? { ok: true, channel: { id: c.id } } : slackError('channel_not_found');
  }
  if (users.length === 0) return slackError('users_list_not_supplied');
  if (users.length > 1) return slackError('not_supported', ['local-slack does not model multi-person DMs']);
  if (!ctx.ws.users.has(users[0] as string)) return slackError('user_not_found');
  return { ok: true, channel: { id: ctx.ws.imFor(users[0] as string).id } };
};

const usergroupUsers: Method = (args, ctx) => {
  const id = str(args, 'usergroup');
  const g = id ? ctx.ws.userGroups.get(id) : undefined;
  if (!g) return slackError('no_such_subteam');
  return { ok: true, users: [...g.users] };
};

const EMOJI_NAME = /^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/;

function reactionTarget(args: ApiArgs, ctx: ApiContext) {
  const ref = str(args, 'channel');
  const c = ref ? ctx.ws.resolveChannel(ref) : undefined;
  if (!c) return slackError('channel_not_found');
  const ts = str(args, 'timestamp');
  const msg = ts ? ctx.ws.findMessage(c.id, ts) : undefined;
  if (!msg) return slackError('message_not_found');
  const name = str(args, 'name')?.replace(/^:|:$/g, '');
  if (!name || !EMOJI_NAME.test(name)) return slackError('invalid_name');
  return { msg, name };
}

const reactionsAdd: Method = (args, ctx) => {
  const t = reactionTarget(args, ctx);
  if ('ok' in t) return t;
  const reactions = (t.msg.reactions ??= []);
  const r = reactions.find((x) => x.name === t.name);
  const me = ctx.ws.id.botUserId;
  if (r?.users.includes(me)) return slackError('already_reacted');
  if (r) {
    r.users.push(me);
    r.count += 1;
  } else reactions.push({ name: t.name, users: [me], count: 1 });
  return { ok: true };
};

const reactionsRemove: Method = (args, ctx) => {
  const t = reactionTarget(args, ctx);
  if ('ok' in t) return t;
  const me = ctx.ws.id.botUserId;
  const r = t.msg.reactions?.find((x) => x.name === t.name);
  if (!r || !r.users.includes(me)) return slackError('no_reaction');
  r.users = r.users.filter((u) => u !== me);
  r.count -= 1;
  if (r.count === 0) t.msg.reactions = t.msg.reactions?.filter((x) => x !== r);
  return { ok: true };
};

const setStatus: Method = (args, ctx) => {
  const ref = str(args, 'channel_id');
  const c = ref ? ctx.ws.resolveChannel(ref) : undefined;
  if (!c) return slackError('channel_not_found');
  const threadTs = str(args, 'thread_ts');
  if (!threadTs || typeof args.status !== 'string') {
    return slackError('invalid_arguments', ['missing required field: thread_ts or status [json-pointer:/]']);
  }
  const key = `${c.id}:${threadTs}`;
  if (args.status) ctx.ws.statuses.set(key, args.status);
  else ctx.ws.statuses.delete(key);
  return { ok: true };
};

export const miscMethods: Record<string, (args: ApiArgs, ctx: ApiContext) => ApiResult> = {
  'auth.test': authTest,
  'users.info': usersInfo,
  'conversations.info': conversationsInfo,
  'conversations.history': conversationsHistory,
  'conversations.replies': conversationsReplies,
  'conversations.open': conversationsOpen,
  'usergroups.users.list': usergroupUsers,
  'reactions.add': reactionsAdd,
  'reactions.remove': reactionsRemove,
  'assistant.threads.setStatus': setStatus,
};
