// In-memory state of the fake workspace: who exists, what was said where, which views are open.
import { generatedId } from './ids.js';
import type { ApiCallRecord, Block, LocalSlackUser, StoredMessage, StoredView } from './types.js';

export interface Channel {
  id: string;
  name: string;
  is_im: boolean;
  /** For IMs: the human on the other side of the bot. */
  user?: string;
  created: number;
}

export interface Trigger {
  userId: string;
  createdAt: number;
  used: boolean;
}

/** Where a response_url posts to: the message the interaction came from. */
export interface ResponseTarget {
  channel: string;
  messageTs?: string;
  userId: string;
  ephemeral: boolean;
  createdAt: number;
  uses: number;
}

export interface WorkspaceIdentity {
  teamId: string;
  appId: string;
  botId: string;
  botUserId: string;
  botToken: string;
}

export class Workspace {
  readonly users = new Map<string, LocalSlackUser>();
  readonly channels = new Map<string, Channel>();
  readonly userGroups = new Map<string, { id: string; handle: string; users: string[] }>();
  private readonly byChannel = new Map<string, StoredMessage[]>();
  readonly ephemeral: StoredMessage[] = [];
  readonly views = new Map<string, StoredView>();
  /** Per user, the modal stack bottom→top as view ids. */
  readonly modalStacks = new Map<string, string[]>();
  readonly homes = new Map<string, string>();
  readonly triggers = new Map<string, Trigger>();
  readonly responseUrls = new Map<string, ResponseTarget>();
  readonly statuses = new Map<string, string>();
  readonly calls: ApiCallRecord[] = [];
  readonly created = Math.floor(Date.now() / 1000);

  constructor(
    readonly id: WorkspaceIdentity,
    users: LocalSlackUser[],
    channels: { id: string; name: string }[],
    groups: { id: string; handle: string; users: string[] }[] = [],
  ) {
    for (const u of users) this.users.set(u.id, u);
    if (!this.users.has(id.botUserId)) {
      this.users.set(id.botUserId, { id: id.botUserId, name: 'bot', real_name: 'Bot', is_bot: true });
    }
    for (const c of channels) this.channels.set(c.id, { ...c, is_im: false, created: this.created });
    for (const g of groups) this.userGroups.set(g.id, g);
  }

  /** Accepts an id (C…, D…), a #name / name, or a user id, which means that user's DM with the bot. */
  resolveChannel(ref: string): Channel | undefined {
    const direct = this.channels.get(ref);
    if (direct) return direct;
    if (this.users.has(ref) && ref !== this.id.botUserId) return this.imFor(ref);
    const name = ref.replace(/^#/, '');
    for (const c of this.channels.values()) if (!c.is_im && c.name === name) return c;
    return undefined;
  }

  imFor(userId: string): Channel {
    const id = `D${userId.replace(/^[UW]/, '')}`.slice(0, 11);
    let im = this.channels.get(id);
    if (!im) {
      im = { id, name: id, is_im: true, user: userId, created: this.created };
      this.channels.set(id, im);
    }
    return im;
  }

  channelType(c: Channel): 'channel' | 'im' {
    return c.is_im ? 'im' : 'channel';
  }

  list(channelId: string): StoredMessage[] {
    let l = this.byChannel.get(channelId);
    if (!l) {
      l = [];
      this.byChannel.set(channelId, l);
    }
    return l;
  }

  addMessage(msg: StoredMessage): StoredMessage {
    this.list(msg.channel).push(msg);
    if (msg.thread_ts && msg.thread_ts !== msg.ts) {
      const parent = this.findMessage(msg.channel, msg.thread_ts);
      if (parent) {
        parent.thread_ts = parent.ts;
        parent.reply_count = (parent.reply_count ?? 0) + 1;
        parent.latest_reply = msg.ts;
        const who = msg.user ?? msg.bot_id;
        if (who && !(parent.reply_users ?? []).includes(who)) parent.reply_users = [...(parent.reply_users ?? []), who];
      }
    }
    return msg;
  }

  findMessage(channelId: string, ts: string): StoredMessage | undefined {
    return this.byChannel.get(channelId)?.find((m) => m.ts === ts);
  }

  removeMessage(channelId: string, ts: string): boolean {
    const l = this.byChannel.get(channelId);
    const i = l?.findIndex((m) => m.ts === ts) ?? -1;
    if (!l || i < 0) return false;
    l.splice(i, 1);
    return true;
  }

  findEphemeral(userId: string, ts: string): StoredMessage | undefined {
    return this.ephemeral.find((m) => m.ephemeral_for === userId && m.ts === ts);
  }

  topLevel(channelId: string): StoredMessage[] {
    return (this.byChannel.get(channelId) ?? []).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
  }

  thread(channelId: string, threadTs: string): StoredMessage[] {
    return (this.byChannel.get(channelId) ?? []).filter((m) => m.ts === threadTs || m.thread_ts === threadTs);
  }

  allMessages(channelId: string): StoredMessage[] {
    return this.byChannel.get(channelId) ?? [];
  }

  modalStack(userId: string): StoredView[] {
    return (this.modalStacks.get(userId) ?? []).map((id) => this.views.get(id)).filter((v): v is StoredView => !!v);
  }

  dropViews(ids: string[]): void {
    for (const id of ids) this.views.delete(id);
  }
}

/**
 * Slack stores blocks with a block_id/action_id filled in when the app left them out,
 * and echoes those ids back in interaction payloads; clicking needs them too.
 */
export function withGeneratedIds(blocks: Block[]): Block[] {
  return blocks.map((b) => {
    const out: Block = { ...b, block_id: b.block_id ?? generatedId() };
    const fill = (el: unknown): unknown =>
      el && typeof el === 'object' && !Array.isArray(el) && isInteractive(el as Record<string, unknown>)
        ? { ...(el as object), action_id: (el as Record<string, unknown>).action_id ?? generatedId() }
        : el;
    if (Array.isArray(b.elements) && b.type === 'actions') out.elements = b.elements.map(fill);
    if (b.accessory) out.accessory = fill(b.accessory);
    if (b.element) out.element = fill(b.element);
    return out;
  });
}

function isInteractive(el: Record<string, unknown>): boolean {
  return typeof el.type === 'string' && el.type !== 'image' && el.type !== 'plain_text' && el.type !== 'mrkdwn';
}
