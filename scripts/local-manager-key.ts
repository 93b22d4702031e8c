import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOOPBACK_HOST, slackMode, type Config } from '../core/config.js';

export const MANAGER_KEY_FILE = 'manager-api-key';

/**
 * On this machine with the local Slack workspace and no manager key configured, the README's
 * approve command would have nothing to send: a key is made once, kept in the data folder
 * (readable by its owner only) and used as MANAGER_API_KEY. Never in production, never on an
 * interface others reach, never when any key was configured.
 */
export function withLocalManagerKey(config: Config): { config: Config; keyFile?: string } {
  const eligible =
    config.NODE_ENV !== 'production' &&
    slackMode(config) === 'local' &&
    LOOPBACK_HOST.test(config.HOST.trim()) &&
    !config.MANAGER_API_KEY &&
    config.MANAGER_API_KEYS.length === 0;
  if (!eligible) return { config };
  const keyFile = path.join(config.DATA_DIR, MANAGER_KEY_FILE);
  if (!existsSync(keyFile)) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(keyFile, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(keyFile, 0o600);
  const key = readFileSync(keyFile, 'utf8').trim();
  if (key === config.API_KEY) return { config };
  return { config: { ...config, MANAGER_API_KEY: key }, keyFile };
}
