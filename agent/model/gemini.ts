import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
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

/** The parts of a generateContent request a prompt is made of. */
export interface GeminiRequestBody {
  systemInstruction?: { parts: { text?: string }[] };
  tools?: { functionDeclarations?: { name: string; description?: string; parameters?: unknown }[] }[];
  contents: { role: string; parts: unknown[] }[];
}

type Builder = (messages: BaseMessage[], options: Record<string, unknown>) => GeminiRequestBody;

/**
 * The generateContent request `model` sends for one `bindTools(tools).invoke(messages)`, built by
 * the client's own (mended) request builder and not sent: the same message conversion, system
 * instruction and function declarations, for counting what a plan call would cost on any planner.
 */
export function geminiRequest(
  model: ChatGoogleGenerativeAI,
  messages: BaseMessage[],
  tools: BindToolsInput[],
): GeminiRequestBody {
  const bound = model.bindTools(tools as Parameters<ChatGoogleGenerativeAI['bindTools']>[0]) as unknown as {
    config?: Record<string, unknown>;
  };
  const build = (model as unknown as { _buildGenerateContentRequest?: Builder })._buildGenerateContentRequest;
  if (typeof build !== 'function') throw new Error('@langchain/google-genai changed: no request builder');
  // What invoke passes on: the call options bindTools bound (the declarations, converted once).
  return build.call(model, messages, { ...(bound.config ?? {}) });
}
