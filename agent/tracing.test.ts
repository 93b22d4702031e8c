import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunnableLambda } from '@langchain/core/runnables';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../core/config.js';
import { silentLogger } from '../core/logger.js';
import { startTracing } from './tracing.js';

describe('tracing', () => {
  it('is off without both keys: no callbacks, nothing to shut down', async () => {
    for (const keys of [{}, { LANGFUSE_PUBLIC_KEY: 'pk-lf-1' }, { LANGFUSE_SECRET_KEY: 'sk-lf-1' }]) {
      const t = await startTracing(testConfig(keys), silentLogger);
      expect(t.callbacks).toEqual([]);
      await t.shutdown();
    }
  });

  it('with both keys, exports the run to Langfuse over OTLP (a local endpoint here)', async () => {
    const received: { path: string; auth: string | undefined }[] = [];
    const server = createServer((req, res) => {
      received.push({ path: req.url ?? '', auth: req.headers.authorization });
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const t = await startTracing(
      testConfig({ LANGFUSE_PUBLIC_KEY: 'pk-lf-test', LANGFUSE_SECRET_KEY: 'sk-lf-test', LANGFUSE_BASE_URL: baseUrl }),
      silentLogger,
    );
    expect(t.callbacks).toHaveLength(1);
    await RunnableLambda.from(async (x: string) => x.toUpperCase()).invoke('hello', {
      callbacks: t.callbacks,
      runName: 'probe',
    });
    await t.shutdown();
    await new Promise((r) => server.close(r));
    expect(received.some((r) => r.path.includes('/api/public/otel/v1/traces'))).toBe(true);
    expect(received[0]!.auth).toBe(`Basic ${Buffer.from('pk-lf-test:sk-lf-test').toString('base64')}`);
  });
});
