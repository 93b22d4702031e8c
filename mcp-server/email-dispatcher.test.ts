import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { createSeededDatabase, TEST_NOW, type TestDatabase } from '../core/testing/test-database.js';
import { startEmailDispatcher, type OutgoingEmail } from './email-dispatcher.js';
import { formatMessage } from './smtp.js';

let db: TestDatabase;
let dataDir: string;
const clock = new ManualClock(TEST_NOW);

beforeAll(async () => {
  db = await createSeededDatabase({ seed: false });
  dataDir = mkdtempSync(path.join(tmpdir(), 'outbox-test-'));
});
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  clock.set(TEST_NOW);
  await db.pool.query('DELETE FROM email_outbox');
});

async function queue(n: number, opts: { at?: Date; to?: string; body?: string } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await db.pool.query<{ id: string }>(
      `INSERT INTO email_outbox (to_address, subject, body, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $4) RETURNING id`,
      [opts.to ?? `person${i}@example.com`, `Subject ${i}`, opts.body ?? `Hello ${i}`, opts.at ?? clock.now()],
    );
    ids.push(res.rows[0]!.id);
  }
  return ids;
}
const rows = async () =>
  (
    await db.pool.query(
      `SELECT id, status, attempts, next_attempt_at, sent_at, last_error FROM email_outbox ORDER BY id`,
    )
  ).rows;

describe('email dispatcher', () => {
  it('delivers due messages to the local delivery log and marks them sent; future ones wait', async () => {
    const due = await queue(2);
    const [later] = await queue(1, { at: new Date(clock.now().getTime() + 60_000) });
    const d = startEmailDispatcher({ pool: db.pool, clock, logger: silentLogger, dataDir, intervalMs: 0 });
    expect(d.transportName).toBe('log');
    expect(await d.deliverDue()).toEqual({ sent: due, retrying: [], failed: [] });
    const lines = readFileSync(path.join(dataDir, 'outbox.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.slice(-2).map((l) => [l.id, l.to, l.subject])).toEqual([
      [due[0], 'person0@example.com', 'Subject 0'],
      [due[1], 'person1@example.com', 'Subject 1'],
    ]);
    const after = await rows();
    expect(after.filter((r) => r.status === 'sent').map((r) => r.id)).toEqual(due);
    expect(after.find((r) => r.id === due[0])!.sent_at.toISOString()).toBe(TEST_NOW);
    expect(after.find((r) => r.id === later)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await d.deliverDue()).toEqual({ sent: [], retrying: [], failed: [] });
    await d.stop();
  });

  it('retries with exponential backoff, then gives up after five attempts', async () => {
    const [id] = await queue(1);
    let tries = 0;
    const d = startEmailDispatcher({
      pool: db.pool,
      clock,
      logger: silentLogger,
      intervalMs: 0,
      backoffMs: 1000,
      transport: async () => {
        tries++;
        throw new Error('mail server down');
      },
    });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const report = await d.deliverDue();
      const row = (await rows())[0]!;
      expect(row.attempts).toBe(attempt);
      expect(row.last_error).toBe('mail server down');
      if (attempt < 5) {
        expect(report.retrying).toEqual([id]);
        const wait = row.next_attempt_at.getTime() - clock.now().getTime();
        waits.push(wait);
        // Not due again before the backoff has passed.
        clock.advance(wait - 1);
        expect((await d.deliverDue()).retrying).toEqual([]);
        clock.advance(1);
      } else {
        expect(report.failed).toEqual([id]);
        expect(row.status).toBe('failed');
      }
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(tries).toBe(5);
    clock.advance(3_600_000);
    expect(await d.deliverDue()).toEqual({ sent: [], retrying: [], failed: [] });
    await d.stop();
  });

  it('two dispatchers never deliver the same message twice (FOR UPDATE SKIP LOCKED)', async () => {
    const ids = await queue(30);
    const delivered: string[] = [];
    const transport = async (e: OutgoingEmail) => {
      await new Promise((r) => setTimeout(r, 2));
      delivered.push(e.id);
    };
    const a = startEmailDispatcher({
      pool: db.pool,
      clock,
      logger: silentLogger,
      intervalMs: 0,
      batchSize: 7,
      transport,
    });
    const b = startEmailDispatcher({
      pool: db.pool,
      clock,
      logger: silentLogger,
      intervalMs: 0,
      batchSize: 7,
      transport,
    });
    for (let i = 0; i < 4; i++) await Promise.all([a.deliverDue(), b.deliverDue(), a.deliverDue(), b.deliverDue()]);
    expect([...delivered].sort()).toEqual([...ids].sort());
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('takes over a message left "sending" by a dispatcher that died, once its lease ran out', async () => {
    const [id] = await queue(1);
    await db.pool.query(
      `UPDATE email_outbox SET status = 'sending', attempts = 1, next_attempt_at = $2 WHERE id = $1`,
      [id, new Date(clock.now().getTime() + 60_000)],
    );
    const sent: string[] = [];
    const d = startEmailDispatcher({
      pool: db.pool,
      clock,
      logger: silentLogger,
      intervalMs: 0,
      transport: async (e) => void sent.push(e.id),
    });
    expect((await d.deliverDue()).sent).toEqual([]);
    clock.advance(60_000);
    expect((await d.deliverDue()).sent).toEqual([id]);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 2 });
    await d.stop();
  });

  it('runs on a timer until stopped', async () => {
    const [id] = await queue(1);
    const d = startEmailDispatcher({ pool: db.pool, clock, logger: silentLogger, dataDir, intervalMs: 20 });
    for (let i = 0; i < 100 && (await rows())[0]!.status !== 'sent'; i++) await new Promise((r) => setTimeout(r, 20));
    await d.stop();
    expect((await rows())[0]).toMatchObject({ id, status: 'sent' });
  });
});

/** Just enough of an SMTP server to receive one message per connection. */
function fakeSmtp(opts: { rejectRcpt?: boolean } = {}) {
  const received: { from: string; to: string; data: string }[] = [];
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let from = '';
    let to = '';
    socket.write('220 fake.smtp ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push({ from, to, data: buffer.slice(0, end + 2) });
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const i = buffer.indexOf('\r\n');
        if (i < 0) return;
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-fake.smtp\r\n250-SIZE 1000000\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          from = line;
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          to = line;
          socket.write(opts.rejectRcpt ? '550 No such user here\r\n' : '250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write('502 5.5.1 Unrecognized command\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SMTP delivery (node:net, no extra package)', () => {
  it('sends a well-formed message with dot-stuffing and encoded headers', async () => {
    const smtp = fakeSmtp();
    const port = await smtp.listen();
    try {
      const [id] = await queue(1, { to: 'maria@example.com', body: 'Line one\n.leading dot\nDone — thanks' });
      await db.pool.query(`UPDATE email_outbox SET subject = 'Your visit — Tuesday' WHERE id = $1`, [id]);
      const d = startEmailDispatcher({
        pool: db.pool,
        clock,
        logger: silentLogger,
        intervalMs: 0,
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'Brightwell <support@brightwell.example>',
      });
      expect(d.transportName).toBe('smtp');
      expect((await d.deliverDue()).sent).toEqual([id]);
      await d.stop();
      expect(smtp.received).toHaveLength(1);
      const msg = smtp.received[0]!;
      expect(msg.from).toBe('MAIL FROM:<support@brightwell.example>');
      expect(msg.to).toBe('RCPT TO:<maria@example.com>');
      expect(msg.data).toMatch(/^From: Brightwell <support@brightwell\.example>\r\n/);
      expect(msg.data).toContain('To: maria@example.com\r\n');
      expect(msg.data).toContain(`Subject: =?UTF-8?B?${Buffer.from('Your visit — Tuesday').toString('base64')}?=\r\n`);
      expect(msg.data).toContain(`Message-ID: <${id}@brightwell.example>`);
      expect(msg.data).toContain('\r\n\r\nLine one\r\n..leading dot\r\nDone — thanks\r\n');
    } finally {
      await smtp.close();
    }
  });

  it('fails a permanently rejected recipient at once, retries an unreachable server', async () => {
    const smtp = fakeSmtp({ rejectRcpt: true });
    const port = await smtp.listen();
    try {
      const [rejected] = await queue(1);
      const d = startEmailDispatcher({
        pool: db.pool,
        clock,
        logger: silentLogger,
        intervalMs: 0,
        smtpUrl: `smtp://127.0.0.1:${port}`,
      });
      expect((await d.deliverDue()).failed).toEqual([rejected]);
      expect((await rows())[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: expect.stringMatching(/550/),
      });
      await d.stop();
    } finally {
      await smtp.close();
    }
    const closedPort = port; // nothing listens there any more
    const [unreachable] = await queue(1);
    const d = startEmailDispatcher({
      pool: db.pool,
      clock,
      logger: silentLogger,
      intervalMs: 0,
      smtpUrl: `smtp://127.0.0.1:${closedPort}`,
    });
    expect((await d.deliverDue()).retrying).toEqual([unreachable]);
    await d.stop();
  });

  it('formats CRLF line ends and strips header injection', () => {
    const text = formatMessage({
      from: 'a@b.example',
      to: 'c@d.example',
      subject: 'Hi\r\nBcc: evil@x.example',
      text: 'a\nb',
    });
    expect(text).toContain('Subject: Hi Bcc: evil@x.example\r\n');
    expect(text).not.toMatch(/\r\nBcc:/);
    expect(text.endsWith('\r\n\r\na\r\nb\r\n')).toBe(true);
  });
});
