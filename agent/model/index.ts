import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';

/**
 * Gemini when a key is configured, otherwise the deterministic offline planner (said so in logs and replies' metadata).
 * Each is imported only when chosen: a process keeps what it loads for its whole life, so an offline
 * worker never holds the Gemini client, nor a Gemini worker the planner's libphonenumber-js.
 */
export async function createChatModel(config: Config, logger: Logger): Promise<BaseChatModel> {
  if (config.GOOGLE_API_KEY) {
    logger.info({ model: config.GEMINI_MODEL, baseUrl: config.GEMINI_BASE_URL ?? 'default' }, 'planner: Gemini');
    const { createGeminiModel } = await import('./gemini.js');
    return createGeminiModel(config);
  }
  logger.warn('planner: offline fallback (no GOOGLE_API_KEY): a deterministic rule-based planner, not an LLM');
  const { OfflinePlanner } = await import('./offline/index.js');
  return new OfflinePlanner();
}
