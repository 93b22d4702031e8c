/**
 * One product worker for the bench, what `npm start` runs (database pool, stdio tool server child,
 * agent, HTTP API, Slack bot on the bench's local workspace), configured by the bench through
 * BENCH_CONFIG (settings) and BENCH_SLACK (the local workspace's connection, optional).
 */
import { clockFromConfig } from '../../core/clock.js';
import { testConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import type { SlackConnection } from '../../bot/app.js';
import { startProduct } from '../product.js';
import { serveWorker } from './worker-process.js';

const config = testConfig(JSON.parse(process.env.BENCH_CONFIG ?? '{}') as Record<string, string>);
const connection = process.env.BENCH_SLACK ? (JSON.parse(process.env.BENCH_SLACK) as SlackConnection) : undefined;
const product = await startProduct({
  config,
  logger: silentLogger,
  clock: clockFromConfig(config),
  workerId: process.env.BENCH_WORKER_ID ?? `bench-${process.pid}`,
  slack: connection ? { connection, cueDelayMs: 5000 } : false,
});
serveWorker(product.url, { ack: () => product.slack?.bot.ackStats() ?? null }, () => product.close());
