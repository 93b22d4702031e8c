import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolArgs } from '../../schema/tools/catalog.js';
import { startFakeGemini, type FakeGemini, type GenerateContentRequest } from '../testing/fake-gemini.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createGeminiModel } from './gemini.js';
import { geminiSchemaProblems } from './model-schema.js';

/*
 * The Gemini path to the booking tools: the real @langchain/google-genai client against the strict
 * local fake, the real graph and tool server. Scripted like the model the system prompt asks for:
 * look the bookings up, then move the one named, by its id from the lookup result. The model is
 * not asked for the customer's id (the plan step fills it in), so the script sends none.
 */

let fake: FakeGemini;
let h: Harness;
const CUSTOMER = 'cus_005'; // the seed gives this customer one booking: a drywall patch on Thu, Dec 10

const lastContent = (req: GenerateContentRequest) => req.contents[req.contents.length - 1];

beforeAll(async () => {
  fake = await startFakeGemini((req) => {
    const response = lastContent(req)?.parts.find((p) => p.functionResponse)?.functionResponse;
    if (!response) return [{ functionCall: { name: 'lookup_customer', args: {} } }];
    if (response.name === 'lookup_customer') {
      const text = JSON.stringify(response.response);
      const id = /"id":"(BKG-\d+)","service_id":"svc_drywall_patch"/.exec(text.replace(/\\"/g, '"'))?.[1];
      return [
        { text: 'Moving your drywall patch to Friday at 10 AM is free, since it is more than 24 hours away.' },
        {
          functionCall: {
            name: 'reschedule_booking',
            args: { booking_id: id ?? 'BKG-0', new_start_time: '2026-12-11T10:00:00-05:00' },
          },
        },
      ];
    }
    return [{ text: 'Done.' }];
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

describe('Gemini reaches the booking tools', () => {
  it('looks the bookings up, then proposes reschedule_booking for the booking it found (not book_slot)', async () => {
    const t = await h.agent.service.handleMessage({
      threadId: 'gemini:booking-change:1',
      customerId: CUSTOMER,
      text: 'can you move my drywall patch to friday at 10am?',
      source: 'api',
    });
    expect(t.fallback).toBe(false);
    expect(t.status).toBe('pending_approval');
    expect(t.pending.map((p) => p.tool)).toEqual(['reschedule_booking']);
    const { rows } = await h.db.pool.query<{ id: string }>(
      `SELECT id FROM bookings WHERE customer_id = $1 AND service_id = 'svc_drywall_patch'`,
      [CUSTOMER],
    );
    expect(t.pending[0]!.args).toEqual({
      customer_id: CUSTOMER,
      booking_id: rows[0]!.id,
      new_start_time: '2026-12-11T10:00:00-05:00',
    });
    expect(parseToolArgs('reschedule_booking', t.pending[0]!.args).ok).toBe(true);
    expect(t.reply).toMatch(/free/);

    // Two model calls, both accepted by the fake: the declarations include both new tools, each
    // inside the schema subset Gemini accepts, and the system prompt tells the model how to use them.
    expect(fake.requests).toHaveLength(2);
    for (const { body } of fake.requests) {
      const declarations = body.tools!.flatMap((tool) => tool.functionDeclarations!);
      expect(declarations.map((d) => d.name)).toEqual(
        expect.arrayContaining(['lookup_customer', 'reschedule_booking', 'cancel_booking', 'book_slot']),
      );
      for (const d of declarations) expect(geminiSchemaProblems(d.parameters ?? {}), d.name).toEqual([]);
      expect(JSON.stringify(body.systemInstruction)).toMatch(/Never call book_slot to move a booking/);
    }
    const reschedule = fake.requests[0]!.body.tools!.flatMap((tool) => tool.functionDeclarations!).find(
      (d) => d.name === 'reschedule_booking',
    )!;
    expect(Object.keys((reschedule.parameters as { properties: object }).properties).sort()).toEqual([
      'booking_id',
      'new_start_time',
    ]);
  });
});
