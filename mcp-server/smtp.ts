import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { hostname } from 'node:os';
import tls from 'node:tls';

/**
 * A minimal SMTP client on node:net / node:tls, enough for a relay or a local catcher (MailHog,
 * Mailpit, smtp4dev, a provider's submission port): `smtp://[user:pass@]host[:port]` (plain, upgraded
 * with STARTTLS when the server offers it; `?starttls=false` to never upgrade), or
 * `smtps://…` (TLS from the first byte, port 465). AUTH PLAIN when the URL has credentials.
 * One message per connection; no pipelining, no attachments, text/plain UTF-8 only.
 */

export interface SmtpMessage {
  from: string; // "Name <addr@host>" or "addr@host"
  to: string;
  subject: string;
  text: string;
  messageId?: string;
  date?: Date;
}

export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
  /** 5xx replies are permanent: retrying the same message will not help. */
  get permanent(): boolean {
    return this.code !== undefined && this.code >= 500;
  }
}

const addressOf = (s: string) => /<([^>]+)>/.exec(s)?.[1]?.trim() ?? s.trim();
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

function encodeHeader(value: string): string {
  const v = oneLine(value);
  // eslint-disable-next-line no-control-regex
  return /^[\x20-\x7e]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

function encodeFrom(from: string): string {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  if (!m || !m[1]) return oneLine(from);
  return `${encodeHeader(m[1].replace(/^"|"$/g, ''))} <${oneLine(m[2]!)}>`;
}

/** RFC 5322 message with CRLF line ends and SMTP dot-stuffing applied. */
export function formatMessage(msg: SmtpMessage): string {
  const domain = addressOf(msg.from).split('@')[1] ?? 'localhost';
  const headers = [
    `From: ${encodeFrom(msg.from)}`,
    `To: ${oneLine(msg.to)}`,
    `Subject: ${encodeHeader(msg.subject)}`,
    `Date: ${(msg.date ?? new Date()).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${msg.messageId ?? randomUUID()}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ];
  const body = msg.text
    .replace(/\r\n|\r|\n/g, '\r\n')
    .split('\r\n')
    .map((line) => (line.startsWith('.') ? `.${line}` : line))
    .join('\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
}

/** Reads SMTP replies (possibly multi-line: "250-…" continues, "250 …" ends) from a socket. */
class ReplyReader {
  private buffer = '';
  private lines: string[] = [];
  private waiting?: { resolve: (r: { code: number; text: string }) => void; reject: (e: Error) => void };
  private failure?: Error;

  constructor(private socket: net.Socket) {
    this.attach(socket);
  }

  attach(socket: net.Socket): void {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        this.lines.push(this.buffer.slice(0, i).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(i + 1);
      }
      this.pump();
    });
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new SmtpError('connection closed by the SMTP server')));
    socket.on('timeout', () => {
      this.fail(new SmtpError('SMTP server timed out'));
      socket.destroy();
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(this.failure);
  }

  private pump(): void {
    if (!this.waiting) return;
    const end = this.lines.findIndex((l) => /^\d{3}(?: |$)/.test(l));
    if (end < 0) return;
    const reply = this.lines.splice(0, end + 1);
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve({ code: Number(reply[end]!.slice(0, 3)), text: reply.map((l) => l.slice(4)).join('\n') });
  }

  next(): Promise<{ code: number; text: string }> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.pump();
    });
  }

  /** After STARTTLS: stop listening to the plain socket. */
  detach(): void {
    this.socket.removeAllListeners('data');
    this.socket.removeAllListeners('close');
    this.socket.removeAllListeners('error');
    this.socket.removeAllListeners('timeout');
    this.socket.on('error', () => undefined); // late errors of a socket we are done with
  }
}

export async function sendSmtp(url: string, msg: SmtpMessage, opts: { timeoutMs?: number } = {}): Promise<void> {
  const u = new URL(url);
  const implicitTls = u.protocol === 'smtps:';
  if (!implicitTls && u.protocol !== 'smtp:') throw new SmtpError(`unsupported SMTP URL scheme ${u.protocol}`);
  const host = u.hostname;
  const port = Number(u.port) || (implicitTls ? 465 : 25);
  const timeout = opts.timeoutMs ?? 30_000;
  const allowStartTls = u.searchParams.get('starttls') !== 'false';

  let socket: net.Socket = await new Promise((resolve, reject) => {
    const s = implicitTls ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
    s.once(implicitTls ? 'secureConnect' : 'connect', () => resolve(s));
    s.once('error', reject);
  });
  socket.setTimeout(timeout);
  const reader = new ReplyReader(socket);

  const expect = async (ok: number[], what: string) => {
    const r = await reader.next();
    if (!ok.includes(r.code)) throw new SmtpError(`${what}: ${r.code} ${r.text}`, r.code);
    return r;
  };
  const command = async (line: string, ok: number[], what = line.split(' ')[0]!) => {
    socket.write(`${line}\r\n`);
    return expect(ok, what);
  };

  try {
    await expect([220], 'greeting');
    const me = hostname() || 'localhost';
    let ehlo = await command(`EHLO ${me}`, [250], 'EHLO');
    if (!implicitTls && allowStartTls && /^STARTTLS$/im.test(ehlo.text)) {
      await command('STARTTLS', [220]);
      reader.detach();
      socket = await new Promise<net.Socket>((resolve, reject) => {
        const s = tls.connect({ socket, servername: host }, () => resolve(s));
        s.once('error', reject);
      });
      socket.setTimeout(timeout);
      reader.attach(socket);
      ehlo = await command(`EHLO ${me}`, [250], 'EHLO');
    }
    if (u.username) {
      const user = decodeURIComponent(u.username);
      const pass = decodeURIComponent(u.password);
      await command(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`, 'utf8').toString('base64')}`, [235], 'AUTH');
    }
    await command(`MAIL FROM:<${oneLine(addressOf(msg.from))}>`, [250], 'MAIL FROM');
    await command(`RCPT TO:<${oneLine(addressOf(msg.to))}>`, [250, 251], 'RCPT TO');
    await command('DATA', [354]);
    socket.write(formatMessage(msg));
    await command('.', [250], 'end of DATA');
    socket.write('QUIT\r\n');
  } finally {
    reader.detach();
    socket.end();
    socket.destroy();
  }
}
