import { gunzipSync, gzipSync } from 'node:zlib';
import { JsonPlusSerializer, type SerializerProtocol } from '@langchain/langgraph-checkpoint';

const PREFIX = 'gz+';
/** Small values (and the checkpoint metadata, which the saver re-parses as JSON text) stay plain. */
const MIN_BYTES = 1024;

/**
 * LangChain's message JSON is verbose and repetitive; gzip takes a window of messages to about a
 * fifth. Values are tagged `gz+<type>` so older, uncompressed rows still load.
 */
export class CompressedSerializer implements SerializerProtocol {
  constructor(private readonly inner: SerializerProtocol = new JsonPlusSerializer()) {}

  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    const [type, bytes] = await this.inner.dumpsTyped(data);
    if (bytes.byteLength < MIN_BYTES) return [type, bytes];
    return [PREFIX + type, new Uint8Array(gzipSync(bytes, { level: 6 }))];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (!type.startsWith(PREFIX)) return this.inner.loadsTyped(type, data);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'binary') : data;
    return this.inner.loadsTyped(type.slice(PREFIX.length), new Uint8Array(gunzipSync(bytes)));
  }
}
