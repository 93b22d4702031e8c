import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini, type FakeGemini } from '../testing/fake-gemini.js';
import { createGeminiModel, geminiRequest } from './gemini.js';

let fake: FakeGemini;
beforeAll(async () => {
  fake = await startFakeGemini(() => [{ text: 'ok' }]);
});
afterAll(async () => fake?.close());

const specs = [
  {
    type: 'function' as const,
    function: {
      name: 'lookup_customer',
      description: 'Find a customer.',
      parameters: { type: 'object', properties: { name: { type: 'string' } } },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'search_knowledge_base',
      description: 'Search.',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  },
];

describe('geminiRequest', () => {
  it('builds exactly the body the client sends (parallel responses mended), without sending it', async () => {
    const model = createGeminiModel({
      GOOGLE_API_KEY: 'k',
      GEMINI_MODEL: 'gemini-2.5-flash',
      GEMINI_BASE_URL: fake.url,
    });
    const messages = [
      new SystemMessage('You are a test.'),
      new HumanMessage('both please'),
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'a', name: 'lookup_customer', args: { name: 'x' } },
          { id: 'b', name: 'search_knowledge_base', args: { query: 'y' } },
        ],
      }),
      new ToolMessage({ tool_call_id: 'a', name: 'lookup_customer', content: '{"status":"found"}' }),
      new ToolMessage({ tool_call_id: 'b', name: 'search_knowledge_base', content: '{"results":[]}' }),
    ];
    const before = fake.requests.length;
    const built = geminiRequest(model, messages, specs);
    expect(fake.requests.length).toBe(before);
    await model.bindTools(specs).invoke(messages);
    const sent = fake.requests[fake.requests.length - 1]!.body;
    // The SDK adds only its own settings (safetySettings) on the way out; the prompt is this.
    const { systemInstruction, tools, contents } = sent;
    expect(JSON.parse(JSON.stringify(built))).toMatchObject({ systemInstruction, tools, contents });
    expect(JSON.stringify(built.contents)).toBe(JSON.stringify(contents));
    expect(JSON.stringify(built.tools)).toBe(JSON.stringify(tools));
    // The mend applies: both responses travel in one content, as the live API wants.
    expect(built.contents.at(-1)!.parts).toHaveLength(2);
    expect(built.tools![0]!.functionDeclarations!.map((d) => d.name)).toEqual([
      'lookup_customer',
      'search_knowledge_base',
    ]);
  });
});
