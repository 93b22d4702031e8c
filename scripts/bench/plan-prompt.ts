/**
 * Prompt tokens of single plan calls, in isolation: no Postgres, no product. The plan node's own
 * builders (system prompt, tool declarations) make the request for a few representative turns, the
 * real Gemini client sends it to the local stand-in of the API, and the Gemma 3 tokenizer counts
 * each part of the captured body (see prompt-tokens.ts for why that tokenizer).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { silentLogger } from '../../core/logger.js';
import { fixedClock } from '../../core/clock.js';
import { TEST_NOW, TEST_TZ } from '../../core/testing/constants.js';
import { createToolServer } from '../../mcp-server/server.js';
import { bestSentences, snippetWords } from '../../mcp-server/tools/search-knowledge-base.js';
import { createGeminiModel } from '../../agent/model/gemini.js';
import { planInput } from '../../agent/nodes/plan.js';
import { approvalEventMessage, type PlanContext } from '../../agent/plan-context.js';
import { ToolClient } from '../../agent/tool-client.js';
import { toolOutcomeMessage } from '../../agent/tool-outcome.js';
import { startFakeGemini } from '../../agent/testing/fake-gemini.js';
import { requestTokenCounter } from '../../evals/prompt-tokens.js';
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

/**
 * Help-centre hits the way the search returns them: the (at most three) sentences of each article
 * sharing most words with the question, at most 520 characters.
 */
function hits(question: string, ids: string[]): PlanContext['retrieved'] {
  return ids.map((id, i) => {
    const a = KB_ARTICLES.find((x) => x.id === id);
    if (!a) throw new Error(`no article ${id}`);
    return { id, title: a.title, topic: a.topic, snippet: bestSentences(a.body, snippetWords(question)), score: 5 - i };
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

const CHANGE_HITS = [
  'kb-cancellation-and-rescheduling-01',
  'kb-cancellation-and-rescheduling-02',
  'kb-cancellation-and-rescheduling-03',
  'kb-booking-01',
  'kb-pricing-02',
];

const BOOK_ARGS = { customer_id: customer.id, service_id: 'svc_deep_clean', start_time: '2026-12-10T10:00:00-05:00' };

/**
 * A knowledge question, a booking request, the plan call after a manager approved that booking, and
 * an unlinked user's question: each with the window and the retrieved articles the graph holds then.
 */
export function planTurns(): PlanTurn[] {
  const hoursQuestion = 'What are your opening hours on Saturdays?';
  const bookQuestion = 'Can you book a deep clean for Thursday at 10am?';
  const moveQuestion = 'Can you move my deep clean to Friday at 10am?';
  const bookHits = hits(bookQuestion, [
    'kb-booking-01',
    'kb-pricing-01',
    'kb-pricing-02',
    'kb-booking-02',
    'kb-booking-03',
  ]);
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
      name: 'booking request, 5 articles',
      ctx: context({ retrieved: bookHits }),
      messages: [new HumanMessage(bookQuestion)],
    },
    {
      // The articles stay those of the booking question: the decision retrieves nothing.
      name: 'after an approval decision',
      ctx: context({ retrieved: bookHits }),
      messages: [
        new HumanMessage(bookQuestion),
        new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'book_slot', args: BOOK_ARGS }] }),
        toolOutcomeMessage('call_1', 'book_slot', {
          kind: 'pending_approval',
          approval_id: 'apr_0001',
          expires_at: '2026-12-08T14:00:00.000Z',
        }),
        new AIMessage(
          "I've sent this request to our team for approval:\n• Book Deep Cleaning on Thu, Dec 10, 10:00 AM EST\n" +
            "Nothing has changed yet. I'll let you know here as soon as a manager decides.",
        ),
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
      name: 'booking change, 5 articles',
      ctx: context({ retrieved: hits(moveQuestion, CHANGE_HITS) }),
      messages: [new HumanMessage(moveQuestion)],
    },
    {
      name: 'unlinked user question, 5 articles',
      ctx: context({ customer: null, retrieved: hoursHits }),
      messages: [new HumanMessage(hoursQuestion)],
    },
  ];
}

/** Sends each turn's plan request through the real Gemini client and counts its parts. */
export async function measurePlanTurns(turns: PlanTurn[] = planTurns()): Promise<PlanPromptTokens[]> {
  const count = requestTokenCounter();
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
      const { messages, specs } = planInput(turn.ctx, turn.messages, await tools.listTools());
      await model.bindTools(specs).invoke(messages);
      const body = fake.requests[fake.requests.length - 1]!.body;
      out.push({
        turn: turn.name,
        ...count(body),
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
