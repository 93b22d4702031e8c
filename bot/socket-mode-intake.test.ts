// Socket Mode has no HTTP request to answer 5xx: the envelope ack is what Slack waits for, and an
// unacked envelope is redelivered. The receiver the product builds for Socket Mode (Bolt's real
// SocketModeReceiver behind StoreFirstReceiver, a real App, real Postgres behind the outage proxy)
// is fed envelopes the way its SocketModeClient hands them over; only the WebSocket is left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, type SocketModeReceiver } from '@slack/bolt';
import { createPool, type Pool } from '../core/pg-pool.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, type TestDatabase } from '../core/testing/test-database.js';
import { startTcpProxy, type TcpProxy } from '../core/testing/tcp-proxy.js';
import { createSlackReceiver } from './receiver.js';

interface Envelope {
  body: Record<string, unknown>;
  retry_num?: number;
  retry_reason?: string;
  ack: (response?: unknown) => Promise<void>;
}

let db: TestDatabase;
let proxy: TcpProxy;
let pool: Pool;
let app: App;
let socket: SocketModeReceiver;
const seen: { text?: string }[] = [];

const boltLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => 'error',
  setName() {},
} as never;

beforeAll(async () => {
  db = await createSeededDatabase({ seed: false });
  const target = new URL(db.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  pool = createPool(proxy.proxiedUrl(db.url));
  const built = createSlackReceiver(
    { mode: 'socket', signingSecret: 'unused-in-socket-mode', appToken: 'xapp-test' },
    { endpoint: '/slack/events', pool, logger: silentLogger, boltLogger },
  );
  socket = built.socket!;
  app = new App({
    token: 'xoxb-test',
    botId: 'B1',
    botUserId: 'U0BOT',
    tokenVerificationEnabled: false,
    receiver: built.receiver,
    logger: boltLogger,
  });
  app.event('message', async ({ event }) => {
    seen.push(event as { text?: string });
  });
});
afterAll(async () => {
  await pool?.end().catch(() => undefined);
  await proxy?.close();
  await db?.drop();
});

let n = 0;
function messageEvent(text: string) {
  n += 1;
  return {
    type: 'event_callback',
    team_id: 'T1',
    api_app_id: 'A1',
    event_id: `EvSocket${n}`,
    event: { type: 'message', user: 'U0CUSTOMER', channel: 'C1', channel_type: 'channel', text, ts: `1.${n}` },
    authorizations: [{ team_id: 'T1', user_id: 'U0BOT', is_bot: true }],
  };
}

/** Hand an envelope to the receiver as its SocketModeClient does, and wait until it is handled. */
async function deliver(body: Record<string, unknown>, retryNum?: number) {
  const acks: { storedAtAck: string | undefined }[] = [];
  const listener = socket.client.listeners('slack_event')[0] as (e: Envelope) => Promise<void>;
  await listener({
    body,
    ...(retryNum ? { retry_num: retryNum, retry_reason: 'timeout' } : {}),
    ack: async () => {
      // What a reader of the database sees at the moment Slack is told the event arrived.
      const row = await db.pool.query(`SELECT status FROM slack_events WHERE event_id = $1`, [body.event_id]);
      acks.push({ storedAtAck: row.rows[0]?.status });
    },
  });
  return acks;
}

describe('Socket Mode intake', () => {
  it('acks an event only once it is stored, and hands the listener the cleaned text', async () => {
    const body = messageEvent('hello\u0000 from \uDC00 socket mode');
    const acks = await deliver(body);
    expect(acks).toEqual([{ storedAtAck: 'received' }]);
    expect(seen.at(-1)?.text).toBe('hello from \uFFFD socket mode');
    const row = (await db.pool.query(`SELECT payload FROM slack_events WHERE event_id = $1`, [body.event_id])).rows[0];
    expect(row.payload.text).toBe('hello from \uFFFD socket mode');
  });

  it('does not ack while the database is down, so Slack redelivers; the redelivery is processed once', async () => {
    const body = messageEvent('sent during an outage');
    await pool.query('SELECT 1'); // a pooled connection for the outage to cut
    const before = seen.length;
    await proxy.pause();
    let acks;
    try {
      acks = await deliver(body);
    } finally {
      proxy.resume();
    }
    expect(acks).toEqual([]);
    expect(seen).toHaveLength(before);

    expect(await deliver(body, 1)).toEqual([{ storedAtAck: 'received' }]);
    expect(seen.slice(before).map((e) => e.text)).toEqual(['sent during an outage']);
    // A duplicate redelivery is acked (so Slack stops) and not handed to listeners again.
    expect(await deliver(body, 2)).toEqual([{ storedAtAck: 'received' }]);
    expect(seen.slice(before)).toHaveLength(1);
  });
});
