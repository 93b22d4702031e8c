// A real product (HTTP server, agent, in-process tool server) wired to a local Slack workspace over
// real HTTP, for the bot's tests. One or several workers on one database.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ManualClock } from '../../core/clock.js';
import { testConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { createSeededDatabase, TEST_NOW, TEST_TZ, type TestDatabase } from '../../core/testing/test-database.js';
import { startTcpProxy, type TcpProxy } from '../../core/testing/tcp-proxy.js';
import { createToolServer } from '../../mcp-server/server.js';
import { approvalEventOf, planContextOf, type ApprovalEvent } from '../../agent/plan-context.js';
import { ScriptedModel } from '../../agent/testing/scripted-model.js';
import { lastCustomerText } from '../../agent/window.js';
import { startProduct, type Product } from '../../scripts/product.js';
import type { SlackConnection } from '../app.js';
import { localApiUrl, localConnection, startLocalWorkspace } from '../local-mode.js';
import { SENT_PRIVATELY_NOTE } from '../replies.js';
import type { LocalSlack, LocalSlackTiming, StoredMessage } from '../../local-slack/index.js';
import type { RateLimitOptions } from '../../local-slack/rate-limits.js';

export const TZ = TEST_TZ;

/** Fast, deterministic local workspace timings for tests. */
export const FAST_TIMING: LocalSlackTiming = { ackTimeoutMs: 3000, retryDelaysMs: [50, 100, 200], triggerTtlMs: 3000 };

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let n = 0;
const id = () => `call_bot_${++n}`;
const say = (text: string) => new AIMessage({ content: text });
const propose = (name: string, args: Record<string, unknown>) =>
  new AIMessage({ content: '', tool_calls: [{ name, args, id: id(), type: 'tool_call' }] });

/** "slowly" in the customer's words makes the planner take 700 ms (the working cue shows). */
class SlowableModel extends ScriptedModel {
  override async _generate(messages: BaseMessage[]) {
    const last = messages[messages.length - 1]!;
    if (!approvalEventOf(last) && last.getType() !== 'tool' && /\bslowly\b/.test(lastCustomerText(messages))) {
      await new Promise((r) => setTimeout(r, 700));
    }
    return super._generate(messages);
  }
}

/** What the scripted planner says when a decision comes back: enough for tests to read the outcome. */
export function eventReply(e: ApprovalEvent): string {
  switch (e.status) {
    case 'executed':
      return `Done: ${e.tool} ${JSON.stringify(e.args)}`;
    case 'rejected':
      return `A manager declined that: ${e.reason ?? '(no reason)'}`;
    case 'failed':
      return `That could not be done: ${e.error?.message ?? ''}`;
    case 'expired':
      return 'Nobody could look at that in time, so nothing was changed.';
    default:
      return `Update: ${e.status}`;
  }
}

/**
 * A small planner for the bot's tests, driven by the customer's words:
 * "email to X" → update_customer (email), "ticket: TEXT" → create_ticket, "boom" → throws, "slowly" → slow,
 * anything else → an answer. Approval updates are echoed back as replies.
 */
export function botTestModel(): ScriptedModel {
  return new SlowableModel((messages: BaseMessage[]) => {
    const last = messages[messages.length - 1]!;
    const event = approvalEventOf(last);
    if (event) return say(eventReply(event));
    if (last.getType() === 'tool') return say('ok');
    const text = lastCustomerText(messages);
    const customer = planContextOf(messages)?.customer?.id ?? 'cus_001';
    const email = /email to (\S+@\S+)/i.exec(text)?.[1];
    if (email) return propose('update_customer', { customer_id: customer, changes: { email } });
    const ticket = /ticket: ([\s\S]+)/i.exec(text)?.[1];
    if (ticket)
      return propose('create_ticket', {
        customer_id: customer,
        subject: 'Customer report',
        description: ticket.trim(),
        category: 'general',
      });
    if (/\bboom\b/.test(text)) throw new Error('planner exploded');
    return say(`Answer: ${text.slice(0, 80)}`);
  });
}

export interface BotStack {
  db: TestDatabase;
  clock: ManualClock;
  slack: LocalSlack;
  workers: Product[];
  connection: SlackConnection;
  /** With `proxyDatabase`: the proxy between the workers' pools and Postgres (`db.pool` stays direct). */
  dbProxy?: TcpProxy;
  close(): Promise<void>;
}

/** N workers (default 1) of the real product on one seeded database, sharing one local workspace. */
export async function startBotStack(
  opts: {
    workers?: number;
    ttlMinutes?: number;
    cueDelayMs?: number;
    timing?: LocalSlackTiming;
    proxyDatabase?: boolean;
    /** Another planner than `botTestModel` (one per worker). */
    model?: () => BaseChatModel;
    /** More configuration for every worker (e.g. SLACK_PRIVATE_CHANNELS). */
    config?: Record<string, string>;
    /** The workspace's rate limits (default: Slack's published ones). */
    rateLimits?: RateLimitOptions | false;
  } = {},
): Promise<BotStack> {
  const clock = new ManualClock(TEST_NOW);
  const db = await createSeededDatabase({ clock });
  const target = new URL(db.url);
  const dbProxy = opts.proxyDatabase
    ? await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
    : undefined;
  const workerDbUrl = dbProxy ? dbProxy.proxiedUrl(db.url) : db.url;
  const port = await freePort();
  const connection = localConnection({ apiUrl: localApiUrl(port) });
  const toolServers: McpServer[] = [];
  const workers: Product[] = [];
  const logger = silentLogger;
  try {
    for (let i = 0; i < (opts.workers ?? 1); i++) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const tools = createToolServer({ pool: db.pool, clock, timeZone: TZ, logger: silentLogger });
      await tools.connect(serverSide);
      toolServers.push(tools);
      workers.push(
        await startProduct({
          config: testConfig({
            DATABASE_URL: workerDbUrl,
            PORT: '0',
            LOCAL_SLACK_PORT: '0',
            SEED_DEMO: 'false',
            BUSINESS_TIMEZONE: TZ,
            APPROVAL_TTL_MINUTES: String(opts.ttlMinutes ?? 240),
            SWEEPER_INTERVAL_SECONDS: '3600',
            DATA_DIR: `/tmp/bot-test-${process.pid}`,
            ...opts.config,
          }),
          logger: logger.child({ worker: i }),
          clock,
          model: opts.model?.() ?? botTestModel(),
          transport: clientSide,
          workerId: `worker-${i}`,
          slack: { connection, cueDelayMs: opts.cueDelayMs ?? 5000 },
        }),
      );
    }
  } catch (err) {
    await Promise.all(workers.map((w) => w.close()));
    await dbProxy?.close();
    await db.drop();
    throw err;
  }
  const slack = await startLocalWorkspace(connection, {
    port,
    eventsUrls: workers.map((w) => `${w.url}/slack/events`),
    timing: opts.timing ?? FAST_TIMING,
    rateLimits: opts.rateLimits,
  });
  return {
    db,
    clock,
    slack,
    workers,
    connection,
    dbProxy,
    close: async () => {
      await slack.close();
      for (const w of workers) await w.close();
      for (const t of toolServers) await t.close().catch(() => undefined);
      await dbProxy?.close();
      await db.drop();
    },
  };
}

// --- reading the workspace ---------------------------------------------------------------

/** Every text of a message: its `text` and the text of all its blocks, as one string. */
export function textOfMessage(m: StoredMessage | undefined): string {
  if (!m) return '';
  const parts: string[] = [m.text];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string') parts.push(o.text);
      for (const [k, x] of Object.entries(o)) if (k !== 'text' || typeof x !== 'string') visit(x);
    }
  };
  visit(m.blocks ?? []);
  return parts.join('\n');
}

export const cardFor = (slack: LocalSlack, channel: string, approvalId: string) =>
  slack.messages(channel).find((m) => JSON.stringify(m.blocks ?? []).includes(approvalId));

export const botRepliesIn = (slack: LocalSlack, channel: string, threadTs: string) =>
  slack.messages(channel, { thread_ts: threadTs }).filter((m) => m.bot_id && m.ts !== threadTs);

/**
 * What the bot told `user` in one conversation: its replies in the thread and the direct messages
 * it sent them since the conversation began (in a shared channel personal replies go there, and
 * the thread keeps a note in their place, left out here).
 */
export const toldCustomer = (slack: LocalSlack, user: string, channel: string, threadTs: string): StoredMessage[] =>
  [
    ...botRepliesIn(slack, channel, threadTs).filter((m) => m.text !== SENT_PRIVATELY_NOTE),
    ...slack.messages(user).filter((m) => m.bot_id && Number(m.ts) > Number(threadTs)),
  ].sort((a, b) => Number(a.ts) - Number(b.ts));

export const hasButtons = (m: StoredMessage | undefined) => Boolean(m?.blocks?.some((b) => b.type === 'actions'));
