// Messages that today are silently ignored: a thread reply also sent to the channel
// (thread_broadcast) and a message with an attachment (file_share) are a person writing to us.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_IDS } from './local-mode.js';
import { ATTACHMENT_NOTE, ATTACHMENT_ONLY } from './message-kinds.js';
import { botRepliesIn, startBotStack, type BotStack } from './testing/stack.js';

const SUPPORT = LOCAL_IDS.support;
const MARIA = 'U01CUS0001';

let s: BotStack;
beforeAll(async () => {
  s = await startBotStack();
});
afterAll(async () => {
  await s?.close();
});

const repliesIn = (ts: string, n: number, ms = 5000) =>
  s.slack.waitFor(() => {
    const r = botRepliesIn(s.slack, SUPPORT, ts);
    return r.length >= n ? r : undefined;
  }, ms);

describe('message subtypes a person sends', () => {
  it('a thread reply also sent to the channel (thread_broadcast) is answered in its thread', async () => {
    const root = await s.slack.postAsUser(MARIA, SUPPORT, 'hello');
    await repliesIn(root.ts, 1);
    await s.slack.postAsUser(MARIA, SUPPORT, 'do you clean ovens?', { thread_ts: root.ts, broadcast: true });
    const replies = await repliesIn(root.ts, 2);
    expect(replies[1]!.text).toBe('Answer: do you clean ovens?');
  });

  it('with an attachment (file_share): its text is answered, and the reply says attachments are not read', async () => {
    const post = await s.slack.postAsUser(MARIA, SUPPORT, 'the tap still drips, see photo', {
      files: [{ name: 'tap.jpg', mimetype: 'image/jpeg' }],
    });
    const replies = await repliesIn(post.ts, 2);
    expect(replies.map((r) => r.text)).toEqual(['Answer: the tap still drips, see photo', ATTACHMENT_NOTE]);
  });

  it('an attachment with no text gets asked for words', async () => {
    const post = await s.slack.postAsUser(MARIA, SUPPORT, '', { files: [{ name: 'leak.mp4', mimetype: 'video/mp4' }] });
    const replies = await repliesIn(post.ts, 1);
    expect(replies[0]!.text).toBe(ATTACHMENT_ONLY);
  });

  it('edits and other subtypes are still not answered', async () => {
    const before = s.slack.deliveries().length;
    const bot = await s.slack.postBotLikeMessage(SUPPORT, 'an integration posting');
    await s.slack.waitFor(() => (s.slack.deliveries().length > before ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(botRepliesIn(s.slack, SUPPORT, bot.ts)).toHaveLength(0);
  });
});
