// The model servers a document is read by, faked as they answer: a chat-completions server at AI_BASE_URL
// (https://chat.test/v1 in vitest.config.ts, as test/suggestions/fake-chat.ts does) in OpenAI's shapes, and a Workers
// AI binding that gives its raw response as the real one does with `returnRawResponse`. Each records what it was
// asked; anything else is refused, so nothing reaches the internet.
import { vi } from 'vitest';
import { type HugeAnswer, hugeAnswer } from '../helpers/huge-answer';

export type ChatRequest = { url: string; headers: Record<string, string>; body: any };

/**
 * good: `content` as the model's message; garbage: an HTML page instead of JSON; refusal: the model declines;
 * huge: 60 MB, made as it is read; slow: no answer until the caller gives up; stalls: the headers at once, then a
 * body that never ends; down: no connection; busy: 429; broken: 503; no-schema: a server without structured output
 * (400 to json_schema, good in JSON mode).
 */
export type ModelServerMode = 'good' | 'garbage' | 'refusal' | 'huge' | 'slow' | 'stalls' | 'down' | 'busy' | 'broken' | 'no-schema';

export type FakeModelServer = { requests: ChatRequest[]; mode: ModelServerMode; content: string; huge: HugeAnswer };

export const completion = (content: string | null, refusal: string | null = null) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: 'test-vision-model',
  choices: [{ index: 0, message: { role: 'assistant', content, refusal }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 },
});

/** Waits for the caller's abort signal, then fails as a fetch whose signal fired does. */
const untilAborted = (signal: AbortSignal | null | undefined) =>
  new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));

/** A body that sends its first bytes, then nothing until the caller gives up. */
function stallingBody(signal: AbortSignal | null | undefined) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":"chatcmpl-test","choices":[{"message":{"content":"{\\"kind\\":'));
      signal?.addEventListener('abort', () => controller.error(signal.reason));
    },
  });
}

/** How a server in `mode` answers; null for a good answer, which each fake makes in its own shape. */
function trouble(mode: ModelServerMode, signal: AbortSignal | null | undefined, huge: HugeAnswer): Promise<Response> | Response | null {
  switch (mode) {
    case 'down':
      throw new TypeError('fetch failed');
    case 'slow':
      return untilAborted(signal);
    case 'stalls':
      return new Response(stallingBody(signal), { headers: { 'Content-Type': 'application/json' } });
    case 'huge':
      return huge.response();
    case 'garbage':
      return new Response('<html><body><h1>It works!</h1></body></html>', { headers: { 'Content-Type': 'text/html' } });
    case 'busy':
      return Response.json({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }, { status: 429 });
    case 'broken':
      return Response.json({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } }, { status: 503 });
    default:
      return null;
  }
}

export function fakeModelServer(): FakeModelServer {
  const fake: FakeModelServer = { requests: [], mode: 'good', content: '{}', huge: hugeAnswer() };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith('https://chat.test/v1/')) return new Response('Outbound network is disabled in tests.', { status: 503 });
    const body = await request.json<any>();
    fake.requests.push({ url: request.url, headers: Object.fromEntries(request.headers), body });
    if (new URL(request.url).pathname !== '/v1/chat/completions') return Response.json({ error: { message: 'not found' } }, { status: 404 });
    if (fake.mode === 'no-schema' && body.response_format?.type === 'json_schema') {
      return Response.json({ error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error' } }, { status: 400 });
    }
    if (fake.mode === 'refusal') return Response.json(completion(null, "I'm sorry, I can't help with that."));
    return (await trouble(fake.mode, init?.signal, fake.huge)) ?? Response.json(completion(fake.content));
  });
  return fake;
}

export type AiRun = { model: string; inputs: any; options: any };
export type FakeWorkersAi = { ai: Ai; runs: AiRun[]; mode: ModelServerMode; response: unknown; huge: HugeAnswer };

/** An AI binding: with `returnRawResponse` it answers the HTTP response of the inference service, `{response, usage}` as JSON. */
export function fakeWorkersAi(): FakeWorkersAi {
  const fake = { runs: [] as AiRun[], mode: 'good' as ModelServerMode, response: {} as unknown, huge: hugeAnswer() } as FakeWorkersAi;
  fake.ai = {
    async run(model: string, inputs: unknown, options: { signal?: AbortSignal; returnRawResponse?: boolean } = {}) {
      fake.runs.push({ model, inputs, options });
      if (!options.returnRawResponse) throw new Error('this fake answers raw responses only');
      if (fake.mode === 'busy') return Response.json({ internalCode: 3040, name: 'AiError', description: 'Capacity temporarily exceeded, please try again.' }, { status: 429 });
      return (await trouble(fake.mode, options.signal, fake.huge)) ?? Response.json({ response: fake.response, usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 } });
    },
  } as unknown as Ai;
  return fake;
}
