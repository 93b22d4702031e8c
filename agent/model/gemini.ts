import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import type { Config } from '../../core/config.js';
import { mendParallelFunctionResponses } from './gemini-function-responses.js';

/**
 * Gemini 2.5 Flash through LangChain. `GEMINI_BASE_URL` points the real client at another
 * endpoint (the tests use a local fake that speaks the generateContent wire format). Parallel
 * function responses are sent the way the live API requires (gemini-function-responses.ts).
 */
export function createGeminiModel(config: Pick<Config, 'GOOGLE_API_KEY' | 'GEMINI_MODEL' | 'GEMINI_BASE_URL'>) {
  return mendParallelFunctionResponses(
    new ChatGoogleGenerativeAI({
      model: config.GEMINI_MODEL,
      apiKey: config.GOOGLE_API_KEY,
      baseUrl: config.GEMINI_BASE_URL,
      temperature: 0,
      maxRetries: 2,
    }),
  );
}
