/**
 * The bare LangGraph flow behind the same two HTTP calls the product's API has, so one driver
 * measures both the same way: POST /chat (message → interrupt) and POST /approvals/:id/approve
 * (resume → INSERT). The approval id is the thread id: the bare flow keeps no ledger.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPool } from '../../core/pg-pool.js';
import { buildBareGraph, resumeApproved } from './bare-graph.js';
import { serveWorker } from './worker-process.js';

const pool = createPool(process.env.DATABASE_URL!, { max: 10, applicationName: 'bench-bare' });
const graph = buildBareGraph(pool);

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>) : {};
};

const server = createServer((req, res) => {
  void (async () => {
    const body = await readBody(req);
    const reply = (status: number, b: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(b));
    };
    if (req.method === 'POST' && req.url === '/chat') {
      const threadId = body.thread_id ?? `bare:${randomUUID()}`;
      const out = await graph.invoke(
        { customer: body.customer, message: body.message },
        { configurable: { thread_id: threadId } },
      );
      const waiting = Boolean((out as { __interrupt__?: unknown[] }).__interrupt__?.length);
      return reply(200, { thread_id: threadId, approvals: waiting ? [{ id: threadId, status: 'pending' }] : [] });
    }
    const approve = /^\/approvals\/([^/]+)\/approve$/.exec(req.url ?? '');
    if (req.method === 'POST' && approve) {
      const threadId = decodeURIComponent(approve[1]!);
      const out = await graph.invoke(resumeApproved(), { configurable: { thread_id: threadId } });
      return reply(200, { approval: { id: threadId, status: out.result } });
    }
    reply(404, {});
  })().catch((err: Error) => {
    res.writeHead(500);
    res.end(JSON.stringify({ error: err.message }));
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
serveWorker(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {}, async () => {
  await new Promise((r) => server.close(r));
  await pool.end();
});
