import { gunzipSync, gzipSync } from 'node:zlib';
import { JsonPlusSerializer, type SerializerProtocol } from '@langchain/langgraph-checkpoint';

const PREFIX = 'gz+';
const DEFAULT_MIN_BYTES = 1024;

/**
 * Checkpoint metadata is always a plain JSON object, and PostgresSaver `JSON.parse`s whatever
 * `dumpsTyped` returns for it (it goes to a jsonb column that `list({ filter })` queries), so a
 * plain object must stay plain text. Every other value the saver serializes (channel values and
 * pending writes: message arrays, messages, strings) goes to a bytea blob, where gzip is safe.
 * A plain object carrying messages (the `{ drop, append }` window update) is a blob too: metadata
 * never holds class instances, only JSON data.
 */
function mayBeMetadata(data: unknown): boolean {
  if (!isPlainObject(data)) return false;
  return !Object.values(data).some((v) => isInstance(v) || (Array.isArray(v) && v.some(isInstance)));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const isInstance = (v: unknown): boolean =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !isPlainObject(v);

/**
 * LangChain's message JSON is verbose and repetitive; gzip takes a window of messages to about a
 * fifth. Values are tagged `gz+<type>` so older, uncompressed rows still load, and rows an earlier
 * version compressed (any value of 1 KiB or more) load as well.
 */
export class CompressedSerializer implements SerializerProtocol {
  private readonly inner: SerializerProtocol;
  private readonly minBytes: number;

  /** `minBytes`: values smaller than this stay plain (0 compresses every value that may be). */
  constructor(opts: { inner?: SerializerProtocol; minBytes?: number } = {}) {
    this.inner = opts.inner ?? new JsonPlusSerializer();
    this.minBytes = opts.minBytes ?? DEFAULT_MIN_BYTES;
  }

  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    const [type, bytes] = await this.inner.dumpsTyped(data);
    if (bytes.byteLength < this.minBytes || mayBeMetadata(data)) return [type, bytes];
    return [PREFIX + type, new Uint8Array(gzipSync(bytes, { level: 6 }))];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (!type.startsWith(PREFIX)) return this.inner.loadsTyped(type, data);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'binary') : data;
    return this.inner.loadsTyped(type.slice(PREFIX.length), new Uint8Array(gunzipSync(bytes)));
  }
}
