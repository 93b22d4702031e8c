import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { OfflinePlanner } from './offline/index.js';
import { createChatModel } from './index.js';

// Both planners are imported only when chosen (scripts/startup-imports.test.ts): the choice still holds.
describe('createChatModel', () => {
  it('is the offline planner without GOOGLE_API_KEY', async () => {
    const model = await createChatModel(testConfig({ GOOGLE_API_KEY: '' }), silentLogger);
    expect(model).toBeInstanceOf(OfflinePlanner);
  });

  it('is Gemini with a key, on the configured model', async () => {
    const config = testConfig({ GOOGLE_API_KEY: 'test-key', GEMINI_MODEL: 'gemini-2.5-flash' });
    const model = await createChatModel(config, silentLogger);
    expect(model).toBeInstanceOf(ChatGoogleGenerativeAI);
    expect((model as ChatGoogleGenerativeAI).model).toBe('gemini-2.5-flash');
  });
});
