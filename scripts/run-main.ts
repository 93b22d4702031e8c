import { ConfigError } from '../core/config.js';

/**
 * Entry-point wrapper: a configuration problem is one clear message naming the variable (exit 2),
 * anything else is logged with its stack (exit 1).
 */
export async function runMain(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`fatal: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  }
}
