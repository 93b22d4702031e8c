import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { isSharedChannel } from './conversations.js';
import { postConversationReplies, SENT_PRIVATELY_NOTE } from './replies.js';

/** A Web API client that records posts; `open` fails when `dmFails`. */
function fakeClient(opts: { dmFails?: boolean } = {}) {
  const posts: { channel: string; thread_ts?: string; text: string }[] = [];
  const client = {
    conversations: {
      open: async ({ users }: { users: string }) => {
        if (opts.dmFails) throw new Error('cannot_dm_user');
        return { ok: true, channel: { id: `D-${users}` } };
      },
    },
    chat: {
      postMessage: async (a: { channel: string; thread_ts?: string; text: string }) => {
        posts.push({ channel: a.channel, thread_ts: a.thread_ts, text: a.text });
        return { ok: true, ts: String(posts.length) };
      },
    },
  } as unknown as WebClient;
  return { client, posts };
}

const thread = { channel: 'C1', threadTs: '100.1', userId: 'U1' };

describe('postConversationReplies', () => {
  it('shared channel: personal replies by DM with one note per run, the rest in the thread, in order', async () => {
    const { client, posts } = fakeClient();
    const out = await postConversationReplies(client, { ...thread, shared: true }, [
      { text: 'public one', personal: false },
      { text: 'your phone 555 201 3344', personal: true },
      { text: 'your email', personal: true },
      { text: 'public two', personal: false },
    ]);
    expect(out).toEqual({ direct: 2 });
    expect(posts).toEqual([
      { channel: 'C1', thread_ts: '100.1', text: 'public one' },
      { channel: 'D-U1', thread_ts: undefined, text: 'your phone 555 201 3344' },
      // The last one says where the conversation is: an answer in the DM would start a new one.
      {
        channel: 'D-U1',
        thread_ts: undefined,
        text: 'your email\n_About your message in <#C1>: reply in that thread to go on._',
      },
      { channel: 'C1', thread_ts: '100.1', text: SENT_PRIVATELY_NOTE },
      { channel: 'C1', thread_ts: '100.1', text: 'public two' },
    ]);
  });

  it('a DM that cannot be sent fails the delivery and nothing personal reaches the thread', async () => {
    const { client, posts } = fakeClient({ dmFails: true });
    await expect(
      postConversationReplies(client, { ...thread, shared: true }, [{ text: 'your phone', personal: true }]),
    ).rejects.toThrow(/cannot_dm_user/);
    expect(posts).toEqual([]);
  });

  it('a private conversation gets every reply in its thread', async () => {
    const { client, posts } = fakeClient();
    await postConversationReplies(client, { ...thread, shared: false }, [{ text: 'your phone', personal: true }]);
    expect(posts).toEqual([{ channel: 'C1', thread_ts: '100.1', text: 'your phone' }]);
  });
});

describe('isSharedChannel', () => {
  it('DMs and the configured private channels are private; every other channel is shared', () => {
    expect(isSharedChannel('D0123', [])).toBe(false);
    expect(isSharedChannel('C0SUPPORT', [])).toBe(true);
    expect(isSharedChannel('C0CLIENT', ['C0CLIENT'])).toBe(false);
    expect(isSharedChannel('G0PRIVATE', ['C0CLIENT'])).toBe(true);
  });
});
