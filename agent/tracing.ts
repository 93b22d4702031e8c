import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Config } from '../core/config.js';
import { tracingEnabled } from '../core/config.js';
import type { Logger } from '../core/logger.js';

export interface Tracing {
  callbacks: BaseCallbackHandler[];
  shutdown(): Promise<void>;
}

/**
 * Langfuse v5 (OpenTelemetry) when both keys are set; otherwise nothing at all: no exporter, no
 * network, no warnings. The modules are loaded only when needed, so an offline start never touches them.
 */
export async function startTracing(config: Config, logger: Logger): Promise<Tracing> {
  if (!tracingEnabled(config)) return { callbacks: [], shutdown: async () => undefined };
  const [{ BasicTracerProvider }, { LangfuseSpanProcessor }, { setLangfuseTracerProvider }, { CallbackHandler }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@langfuse/otel'),
      import('@langfuse/tracing'),
      import('@langfuse/langchain'),
    ]);
  const provider = new BasicTracerProvider({
    spanProcessors: [
      new LangfuseSpanProcessor({
        publicKey: config.LANGFUSE_PUBLIC_KEY,
        secretKey: config.LANGFUSE_SECRET_KEY,
        baseUrl: config.LANGFUSE_BASE_URL,
        environment: config.NODE_ENV,
      }),
    ],
  });
  setLangfuseTracerProvider(provider);
  logger.info({ baseUrl: config.LANGFUSE_BASE_URL ?? 'default' }, 'Langfuse tracing on');
  return {
    callbacks: [new CallbackHandler({ tags: ['support-agent'] }) as unknown as BaseCallbackHandler],
    shutdown: async () => {
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
    },
  };
}
