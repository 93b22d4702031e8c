import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from './pg-pool.js';
import { createLogger, safeError, scrubSecrets } from './logger.js';
import { createEmptyDatabase, type TestDatabase } from './testing/test-database.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createEmptyDatabase('log');
});
afterAll(async () => {
  await db?.drop();
});

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const logger = createLogger({ LOG_LEVEL: 'info' }, { destination });
  return {
    logger,
    text: () => lines.join('\n'),
    records: () => lines.map((l) => JSON.parse(l) as Record<string, any>),
  };
}

/** The error pg-pool emits for an idle client whose backend was terminated: it carries the client. */
async function terminatedConnectionError(): Promise<{
  err: Error & Record<string, any>;
  secretKey: number;
  password: string | undefined;
}> {
  const pool = createPool(db.url, { max: 1, applicationName: 'logger-test' });
  const emitted = new Promise<Error & Record<string, any>>((resolve) => pool.once('error', resolve));
  const client = await pool.connect();
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const { secretKey, password } = client as unknown as { secretKey: number; password?: string };
  client.release();
  await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
  const err = await emitted;
  await pool.end();
  return { err, secretKey, password };
}

describe('no secret reaches a log line', () => {
  it('a pg error from a terminated connection is logged without its client', async () => {
    const { err, secretKey, password } = await terminatedConnectionError();
    // What the old logs printed: the error holds the client, with the cancel key of the session.
    expect(err.client).toBeDefined();
    expect(err.client.secretKey).toBe(secretKey);
    const out = capture();
    out.logger.error({ err }, 'idle database client error');
    out.logger.warn(err, 'the same error as the first argument');
    const text = out.text();
    expect(text).not.toContain('secretKey');
    expect(text).not.toContain(String(secretKey));
    expect(text).not.toContain('connectionParameters');
    expect(text).not.toContain('"client"');
    if (password) expect(text).not.toContain(password);
    const [first, second] = out.records();
    expect(first!.err).toMatchObject({
      message: 'terminating connection due to administrator command',
      code: '57P01',
      severity: 'FATAL',
    });
    expect(first!.err.stack).toContain('terminating connection');
    expect(second!.err.code).toBe('57P01');
  });

  it('objects with a secretKey, password or token are whitelisted or redacted, wherever they are logged', () => {
    const out = capture();
    const leaky = {
      message: 'connect failed',
      code: 'ECONNREFUSED',
      secretKey: 424242,
      password: 'hunter2-pw',
      user: 'postgres',
    };
    out.logger.error({ err: leaky }, 'as err');
    out.logger.error({ error: leaky, client: { secretKey: 424242 } }, 'as error, plus a client');
    out.logger.error(
      {
        err: new Error('wrapped', { cause: Object.assign(new Error('inner'), { password: 'hunter2-pw', code: 'E1' }) }),
      },
      'a cause',
    );
    out.logger.info(
      {
        req: { headers: { authorization: 'Bearer sk-live-abcdef' } },
        headers: { Authorization: 'Bearer sk-live-abcdef', cookie: 'session=abcdef' },
        token: 'xoxb-1111-2222-abcdef',
        config: { SLACK_SIGNING_SECRET: 'sign-abcdef', GOOGLE_API_KEY: 'AIza-abcdef', password: 'hunter2-pw' },
        DATABASE_URL: 'postgres://app:hunter2-pw@db.example.com:5432/app',
      },
      'fields',
    );
    out.logger.error(
      { err: new Error('could not reach postgres://app:hunter2-pw@db.example.com/app with Bearer sk-live-abcdef') },
      'a URL in a message',
    );
    out.logger.error({ err: 'plain string postgres://app:hunter2-pw@h/db' }, 'a thrown string');
    out.logger.warn(
      { reason: Object.assign(new Error('session lost'), { client: { secretKey: 424242 } }) },
      'an error under another key',
    );
    const text = out.text();
    for (const secret of [
      'hunter2-pw',
      '424242',
      'sk-live-abcdef',
      'xoxb-1111',
      'sign-abcdef',
      'AIza-abcdef',
      'session=abcdef',
      'secretKey',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    const records = out.records();
    expect(records[0]!.err).toEqual({ message: 'connect failed', code: 'ECONNREFUSED' });
    expect(records[2]!.err.cause).toMatchObject({ message: 'inner', code: 'E1' });
    // Where the database is stays visible: only its password goes.
    expect(records[3]!.DATABASE_URL).toBe('postgres://app:***@db.example.com:5432/app');
    expect(records[4]!.err.message).toBe('could not reach postgres://app:***@db.example.com/app with Bearer ***');
  });

  it('keeps what a reader needs: type, message, code and stack of typed errors', () => {
    class LeaseBusyError extends Error {
      readonly code = 'lease_busy';
    }
    expect(safeError(new LeaseBusyError('thread busy'))).toMatchObject({
      type: 'LeaseBusyError',
      message: 'thread busy',
      code: 'lease_busy',
    });
    expect(
      safeError(new AggregateError([new Error('a'), new Error('b')], 'both')).errors?.map((e) => e.message),
    ).toEqual(['a', 'b']);
    expect(scrubSecrets('no secrets here: 127.0.0.1:5432')).toBe('no secrets here: 127.0.0.1:5432');
  });
});

describe('the destination', () => {
  // pino-pretty is loaded only for a terminal (scripts/startup-imports.test.ts): on one it still formats.
  const streamOf = (logger: ReturnType<typeof createLogger>) =>
    (logger as unknown as Record<symbol, { constructor: { name: string } }>)[pino.symbols.streamSym]!;

  it('is pino-pretty on a terminal outside production, JSON otherwise', () => {
    const wasTTY = process.stderr.isTTY;
    try {
      process.stderr.isTTY = true;
      const pretty = streamOf(createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'development' }, { fd: 2 }));
      const json = streamOf(createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, { fd: 2 }));
      expect(pretty.constructor.name).not.toBe(json.constructor.name);
      expect(json.constructor.name).toBe('SonicBoom');
      process.stderr.isTTY = false;
      expect(streamOf(createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'development' }, { fd: 2 })).constructor.name).toBe(
        'SonicBoom',
      );
    } finally {
      process.stderr.isTTY = wasTTY;
    }
  });
});
