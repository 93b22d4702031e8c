import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { createGeminiModel } from './gemini.js';
import { OfflinePlanner } from './offline/index.js';

/**
 * Gemini when a key is configured, otherwise the deterministic offline planner (said so in logs and replies' metadata).
 */
export function createChatModel(config: Config, logger: Logger): BaseChatModel {
  if (config.GOOGLE_API_KEY) {
    logger.info({ model: config.GEMINI_MODEL, baseUrl: config.GEMINI_BASE_URL ?? 'default' }, 'planner: Gemini');
    return createGeminiModel(config);
  }
  logger.warn('planner: offline fallback (no GOOGLE_API_KEY): a deterministic rule-based planner, not an LLM');
  return new OfflinePlanner();
}
