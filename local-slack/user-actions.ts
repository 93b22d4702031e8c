// Things people (and other bots) do in the workspace, each turned into an Events API delivery.
import type { Deliverer } from './delivery.js';
import { type Envelope, envelope } from './events.js';
import { newClientMsgId, nextTs } from './ids.js';
import type { ForgeOpts, PostOpts, PostResult, StoredMessage } from './types.js';
import { publicView } from './views.js';
import type { Channel, Workspace } from './workspace.js';

export class UserActions {
  private readonly sent = new Map<string, Envelope>();

  constructor(
    private readonly ws: Workspace,
    private readonly deliverer: Deliverer,
    private readonly appMentionEvents: boolean,
  ) {}

  private channel(ref: string): Channel {
    const c = this.ws.resolveChannel(ref);
    if (!c) throw new Error(`local-slack: unknown channel ${ref}`);
    return c;
  }

  private requireUser(userId: string): void {
    if (!this.ws.users.has(userId)) throw new Error(`local-slack: unknown user ${userId}`);
  }

  private async send(event: Record<string, unknown>, opts: { via?: number } & ForgeOpts = {}) {
    const env = envelope(this.ws.id, event);
    this.sent.set(env.event_id, env);
    const res = await this.deliverer.event(env.event_id, env, opts);
    return { event_id: env.event_id, status: res.status };
  }

  /** Replies to a reply belong to the parent's thread, as in the Slack client. */
  private threadOf(channelId: string, threadTs?: string): { thread_ts?: string; parent_user_id?: string } {
    if (!threadTs) return {};
    const target = this.ws.findMessage(channelId, threadTs);
    if (!target) throw new Error(`local-slack: no message ${threadTs} in ${channelId} to reply to`);
    const root = target.thread_ts ?? target.ts;
    const parent = this.ws.findMessage(channelId, root);
    return { thread_ts: root, ...(parent?.user ? { parent_user_id: parent.user } : {}) };
  }

  async postAsUser(
    userId: string,
    channelRef: string,
    text: string,
    opts: PostOpts & ForgeOpts = {},
  ): Promise<PostResult> {
    this.requireUser(userId);
    const channel = this.channel(channelRef);
    const ts = nextTs();
    const thread = this.threadOf(channel.id, opts.thread_ts);
    const clientMsgId = newClientMsgId();
    const files = opts.files?.map((f, i) => ({
      id: `F${ts.replace('.', '')}${i}`,
      name: f.name,
      title: f.name,
      mimetype: f.mimetype ?? 'application/octet-stream',
      mode: 'hosted',
      user: userId,
    }));
    const subtype = files?.length ? 'file_share' : opts.broadcast && opts.thread_ts ? 'thread_broadcast' : undefined;
    const kind = { ...(subtype ? { subtype } : {}), ...(files?.length ? { files, upload: true } : {}) };
    this.ws.addMessage({
      type: 'message',
      channel: channel.id,
      ts,
      team: this.ws.id.teamId,
      text,
      user: userId,
      ...thread,
      ...kind,
    });
    const base = {
      user: userId,
      text,
      ts,
      event_ts: ts,
      team: this.ws.id.teamId,
      client_msg_id: clientMsgId,
      channel: channel.id,
      ...thread,
      ...kind,
    };
    const forge = { via: opts.via, signingSecret: opts.signingSecret, timestampSec: opts.timestampSec };
    const sent = await this.send({ type: 'message', ...base, channel_type: this.ws.channelType(channel) }, forge);
    if (this.appMentionEvents && text.includes(`<@${this.ws.id.botUserId}>`))
      await this.send({ type: 'app_mention', ...base }, forge);
    return { ts, ...sent };
  }

  async sendDirectMessage(userId: string, text: string, opts: { via?: number } = {}) {
    this.requireUser(userId);
    const im = this.ws.imFor(userId);
    return { ...(await this.postAsUser(userId, im.id, text, opts)), channel: im.id };
  }

  async postBotLikeMessage(
    channelRef: string,
    text: string,
    opts: { botId?: string; username?: string; thread_ts?: string; via?: number } = {},
  ): Promise<PostResult> {
    const channel = this.channel(channelRef);
    const ts = nextTs();
    const botId = opts.botId ?? 'B0OTHERBOT1';
    const username = opts.username ?? 'other-bot';
    const thread = this.threadOf(channel.id, opts.thread_ts);
    this.ws.addMessage({
      type: 'message',
      subtype: 'bot_message',
      channel: channel.id,
      ts,
      team: this.ws.id.teamId,
      text,
      bot_id: botId,
      username,
      ...thread,
    });
    const sent = await this.send(
      {
        type: 'message',
        subtype: 'bot_message',
        text,
        ts,
        username,
        bot_id: botId,
        channel: channel.id,
        event_ts: ts,
        channel_type: this.ws.channelType(channel),
        ...thread,
      },
      { via: opts.via },
    );
    return { ts, ...sent };
  }

  async editMessage(
    userId: string,
    channelRef: string,
    ts: string,
    text: string,
    opts: { via?: number } = {},
  ): Promise<PostResult> {
    const channel = this.channel(channelRef);
    const msg = this.ws.findMessage(channel.id, ts);
    if (!msg || msg.user !== userId)
      throw new Error(`local-slack: ${userId} has no message ${ts} in ${channel.id} to edit`);
    const previous: StoredMessage = { ...msg };
    const editTs = nextTs();
    msg.text = text;
    msg.edited = { user: userId, ts: editTs };
    const strip = (m: StoredMessage) => {
      const { channel: _c, ephemeral_for: _e, ...rest } = m;
      return rest;
    };
    const sent = await this.send(
      {
        type: 'message',
        subtype: 'message_changed',
        hidden: true,
        channel: channel.id,
        channel_type: this.ws.channelType(channel),
        ts: editTs,
        event_ts: editTs,
        message: strip(msg),
        previous_message: strip(previous),
      },
      opts,
    );
    return { ts: editTs, ...sent };
  }

  async openHome(userId: string, opts: { via?: number } = {}) {
    this.requireUser(userId);
    const homeId = this.ws.homes.get(userId);
    const home = homeId ? this.ws.views.get(homeId) : undefined;
    return this.send(
      {
        type: 'app_home_opened',
        user: userId,
        channel: this.ws.imFor(userId).id,
        tab: 'home',
        event_ts: nextTs(),
        ...(home ? { view: publicView(home) } : {}),
      },
      opts,
    );
  }

  async redeliver(eventId: string, opts: { retryNum?: number; reason?: string; via?: number } = {}) {
    const env = this.sent.get(eventId);
    if (!env) throw new Error(`local-slack: no event ${eventId} was sent`);
    const res = await this.deliverer.retry(eventId, env, opts.retryNum ?? 1, opts.reason ?? 'http_timeout', opts.via);
    return { status: res.status };
  }
}
