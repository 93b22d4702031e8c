import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiSchemaProblems } from './model-schema.js';
import { BOOKING_CHANGE_TOOLS, MUTATING_TOOLS, TOOLS } from '../../schema/tools/catalog.js';
import {
  startFakeGemini,
  validateRequest,
  type FakeGemini,
  type GenerateContentRequest,
} from '../testing/fake-gemini.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createGeminiModel } from './gemini.js';

let fake: FakeGemini;
let h: Harness;

const lastUserText = (req: GenerateContentRequest) =>
  req.contents
    .filter((c) => c.role === 'user')
    .flatMap((c) => c.parts.map((p) => p.text ?? ''))
    .pop() ?? '';

beforeAll(async () => {
  fake = await startFakeGemini((req) => {
    const text = lastUserText(req);
    if (text.startsWith('[approval update'))
      return [{ text: `Done: ${/"id":"(TKT-\d+)"/.exec(text)?.[1] ?? 'unknown'}` }];
    const asked = req.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join(' ');
    if (/tell me both/.test(asked) && !req.contents.some((c) => c.parts.some((p) => p.functionResponse))) {
      // Two reads in one turn, as Gemini does for "what's on file and what do you charge".
      return [
        { functionCall: { name: 'lookup_customer', args: { customer_id: 'cus_001' } } },
        { functionCall: { name: 'search_knowledge_base', args: { query: 'deep clean price' } } },
      ];
    }
    if (/tell me both/.test(asked)) return [{ text: 'Here is your record and our deep clean price.' }];
    if (/leak/.test(text)) {
      return [
        {
          functionCall: {
            name: 'create_ticket',
            // No customer id: the model is not asked for it, the plan step fills it in.
            args: {
              subject: 'Kitchen faucet leaking',
              description: text,
              priority: 'high',
              category: 'technical',
            },
          },
        },
      ];
    }
    return [{ text: 'We are open Monday to Friday, 8 a.m. to 6 p.m.' }];
  });
  h = await startHarness({
    model: createGeminiModel({
      GOOGLE_API_KEY: 'test-key',
      GEMINI_MODEL: 'gemini-2.5-flash',
      GEMINI_BASE_URL: fake.url,
    }),
  });
});

afterAll(async () => {
  await h?.close();
  await h?.db.drop();
  await fake?.close();
});

describe('Gemini through @langchain/google-genai against a local generateContent endpoint', () => {
  it('two function calls in one turn are answered in ONE content with both responses (the live API)', async () => {
    const t = await h.agent.service.handleMessage({
      threadId: 'gemini:parallel',
      customerId: 'cus_001',
      text: 'tell me both: what you have on file and the deep clean price',
      source: 'api',
    });
    expect(t.reply, t.reply).toMatch(/record and our deep clean price/);
    const req = fake.requests[fake.requests.length - 1]!;
    expect(validateRequest(req.body)).toEqual([]);
    const callTurn = req.body.contents.findIndex((c) => c.parts.filter((p) => p.functionCall).length === 2);
    expect(callTurn).toBeGreaterThanOrEqual(0);
    expect(req.body.contents[callTurn + 1]!.parts.filter((p) => p.functionResponse)).toHaveLength(2);
  });

  it('sends the declarations a question needs inside the accepted schema subset, with the system prompt', async () => {
    const t = await h.agent.service.handleMessage({
      threadId: 'gemini:1',
      customerId: 'cus_001',
      text: 'What are your hours?',
      source: 'api',
    });
    expect(t.status).toBe('answered');
    expect(t.reply).toMatch(/Monday to Friday/);
    expect(t.fallback).toBe(false);
    const req = fake.requests[fake.requests.length - 1]!;
    expect(req.apiKey).toBe('test-key');
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    const names = req.body.tools!.flatMap((t) => t.functionDeclarations!.map((f) => f.name));
    // Not a question about moving or cancelling: those two tools (and their rules) wait for one.
    expect(names.sort()).toEqual(
      TOOLS.map((t) => t.name)
        .filter((n) => !BOOKING_CHANGE_TOOLS.has(n))
        .sort(),
    );
    for (const fd of req.body.tools!.flatMap((t) => t.functionDeclarations!)) {
      expect(geminiSchemaProblems(fd.parameters ?? {})).toEqual([]);
      expect(JSON.stringify(fd.parameters), fd.name).not.toMatch(/customer_id/);
    }
    expect(JSON.stringify(req.body.systemInstruction)).toMatch(/Brightwell Home Services/);
  });

  it('routes a functionCall for a mutating tool through the gate, then executes it once approved', async () => {
    const t = await h.agent.service.handleMessage({
      threadId: 'gemini:2',
      customerId: 'cus_001',
      text: 'My kitchen faucet has a leak again',
      source: 'api',
    });
    expect(t.status).toBe('pending_approval');
    expect(MUTATING_TOOLS.has(t.pending[0]!.tool)).toBe(true);
    expect(t.pending[0]!.args.customer_id).toBe('cus_001');
    expect(
      (await h.db.pool.query(`SELECT count(*)::int AS n FROM tickets WHERE approval_id = $1`, [t.pending[0]!.id]))
        .rows[0].n,
    ).toBe(0);
    const out = await h.agent.service.decide({
      approvalId: t.pending[0]!.id,
      approver: 'slack:U01MGR0001',
      decision: 'approve',
    });
    expect(out.approval.status).toBe('executed');
    expect(out.turn?.reply).toMatch(/^Done: TKT-\d+/);
    // The follow-up request was well-formed for Gemini: the function response answers its call.
    const followUp = fake.requests[fake.requests.length - 1]!.body;
    expect(validateRequest(followUp)).toEqual([]);
    expect(JSON.stringify(followUp.contents)).toMatch(/functionResponse/);
  });

  it('the fake rejects what Gemini rejects, so the checks above can fail', () => {
    const bad: GenerateContentRequest = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'x',
              parameters: {
                type: 'object',
                properties: { e: { type: 'string', format: 'email' }, n: { type: 'number', exclusiveMinimum: 0 } },
              },
            },
          ],
        },
      ],
    };
    expect(validateRequest(bad).length).toBeGreaterThanOrEqual(2);
  });
});
