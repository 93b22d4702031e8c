import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own limit for one stdio message. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How much of a discarded line is kept to find its request id (the SDK writes `id` last). */
const KEEP = 256;

/**
 * A stdio server transport that survives an oversized message. The SDK's transport throws once
 * one line passes 10 MB, closes itself and never reads stdin again: one bad message from a buggy
 * or hostile parent deafens the tool server for good. This one streams lines, drops a line past
 * the limit without ever holding more than the limit, answers that request with a JSON-RPC error
 * (so the caller's request ends instead of waiting for a timeout) and goes on reading.
 */
export class BoundedStdioServerTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private chunks: Buffer[] = [];
  private size = 0;
  private discarding = false;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private readonly onStreamError = (err: Error) => this.onerror?.(err);

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let from = 0;
    for (;;) {
      const nl = buf.indexOf(10, from);
      this.take(nl === -1 ? buf.subarray(from) : buf.subarray(from, nl));
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  };

  private take(piece: Buffer): void {
    if (!piece.length) return;
    if (this.discarding) {
      this.tail = lastBytes(Buffer.concat([this.tail, piece]), KEEP);
      return;
    }
    if (this.size + piece.length > this.maxLineBytes) {
      const sofar = Buffer.concat([...this.chunks, piece]);
      this.head = sofar.subarray(0, KEEP);
      this.tail = lastBytes(sofar, KEEP);
      this.chunks = [];
      this.size = 0;
      this.discarding = true;
      return;
    }
    this.chunks.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      const id = requestIdOf(this.tail.toString('utf8')) ?? requestIdOf(this.head.toString('utf8'));
      this.head = this.tail = Buffer.alloc(0);
      this.onerror?.(new Error(`discarded a message over ${this.maxLineBytes} bytes`));
      if (id !== undefined) {
        void this.send({
          jsonrpc: '2.0',
          id,
          error: {
            code: -32600,
            message: `Request too large: over ${this.maxLineBytes} bytes. It was discarded; nothing was run.`,
          },
        });
      }
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }
}

const lastBytes = (b: Buffer, n: number) => (b.length > n ? b.subarray(b.length - n) : b);

/** The `id` of a JSON-RPC request from a fragment of its text, if it is there. */
function requestIdOf(fragment: string): string | number | undefined {
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,100}")/.exec(fragment);
  if (!m) return undefined;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}
