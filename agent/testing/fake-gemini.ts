import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { geminiSchemaProblems } from '../model/model-schema.js';

/*
 * A local stand-in for the Gemini API's generateContent (and streamGenerateContent) wire format,
 * so the real `@langchain/google-genai` client is tested offline. It is small and honest: it
 * rejects what the real API rejects in the parts we use (missing key, function declarations
 * outside the accepted schema subset, function responses without a matching call, a turn of
 * parallel calls answered in several contents) with the
 * same error envelope, and answers with whatever the test scripts.
 */

export interface GeminiPart {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: unknown };
}
export interface GeminiContent {
  role: 'user' | 'model' | 'function';
  parts: GeminiPart[];
}
export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: GeminiPart[] };
  tools?: { functionDeclarations?: { name: string; description?: string; parameters?: Record<string, unknown> }[] }[];
}

export interface FakeGemini {
  url: string;
  requests: { path: string; apiKey: string | undefined; body: GenerateContentRequest }[];
  close(): Promise<void>;
}

function invalid(message: string) {
  return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
}

export function validateRequest(body: GenerateContentRequest): string[] {
  const problems: string[] = [];
  if (!Array.isArray(body.contents) || body.contents.length === 0)
    problems.push('* GenerateContentRequest.contents: contents is not specified');
  (body.tools ?? []).forEach((tool, t) =>
    (tool.functionDeclarations ?? []).forEach((fd, f) => {
      if (!/^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/.test(fd.name))
        problems.push(`* tools[${t}].function_declarations[${f}].name: invalid name`);
      for (const p of geminiSchemaProblems(fd.parameters ?? {})) {
        problems.push(`* GenerateContentRequest.tools[${t}].function_declarations[${f}].parameters${p}`);
      }
    }),
  );
  // The live API answers a turn of N function calls only with ONE following content holding N
  // functionResponse parts (langchainjs #10342: one content per response is refused).
  const contents = body.contents ?? [];
  contents.forEach((c, i) => {
    const calls = (c.parts ?? []).filter((p) => p.functionCall).length;
    const next = contents[i + 1];
    if (c.role !== 'model' || calls === 0 || !next) return;
    const responses = (next.parts ?? []).filter((p) => p.functionResponse).length;
    if (responses !== calls) {
      problems.push(
        '* Please ensure that the number of function response parts is equal to the number of function call ' +
          'parts of the function call turn.',
      );
    }
  });
  const called: string[] = [];
  for (const c of body.contents ?? []) {
    if (!['user', 'model', 'function'].includes(c.role)) problems.push(`* contents.role: unknown role ${c.role}`);
    for (const part of c.parts ?? []) {
      if (part.functionCall) called.push(part.functionCall.name);
      if (part.functionResponse && !called.includes(part.functionResponse.name)) {
        problems.push(`* functionResponse ${part.functionResponse.name} has no preceding functionCall`);
      }
    }
  }
  return problems;
}

export async function startFakeGemini(
  reply: (req: GenerateContentRequest, n: number) => GeminiPart[],
): Promise<FakeGemini> {
  const requests: FakeGemini['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const m = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!m || req.method !== 'POST')
        return send(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
      const apiKey = (req.headers['x-goog-api-key'] as string | undefined) ?? url.searchParams.get('key') ?? undefined;
      if (!apiKey)
        return send(403, {
          error: {
            code: 403,
            message: "Method doesn't allow unregistered callers. Please use an API key.",
            status: 'PERMISSION_DENIED',
          },
        });
      let body: GenerateContentRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        const r = invalid('Invalid JSON payload received.');
        return send(r.status, r.body);
      }
      requests.push({ path: url.pathname, apiKey, body });
      const problems = validateRequest(body);
      if (problems.length) {
        const r = invalid(problems.join('\n'));
        return send(r.status, r.body);
      }
      const parts = reply(body, requests.length);
      const response = {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: {
          promptTokenCount: JSON.stringify(body).length >> 2,
          candidatesTokenCount: 12,
          totalTokenCount: (JSON.stringify(body).length >> 2) + 12,
        },
        modelVersion: m[1],
      };
      if (m[2] === 'streamGenerateContent') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
        return;
      }
      send(200, response);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
