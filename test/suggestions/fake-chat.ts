// A local chat-completions server for tests: outbound fetch to AI_BASE_URL (https://chat.test/v1 in
// vitest.config.ts) is answered here in OpenAI's shapes and recorded. Anything else is refused, so
// nothing reaches the internet.
import { vi } from 'vitest';
import { type HugeAnswer, hugeAnswer } from '../helpers/huge-answer';

export type ChatRequest = { url: string; headers: Record<string, string>; body: any };
export type FakeChat = {
  requests: ChatRequest[];
  /**
   * good: the answer in `content`; malformed: prose instead of JSON; slow: no answer until the caller
   * gives up; down: no connection; no-schema: a server without structured output (400 to json_schema);
   * huge: an answer of 60 MB, made as it is read (`huge.read()` tells how much was).
   */
  mode: 'good' | 'malformed' | 'slow' | 'down' | 'no-schema' | 'huge';
  content: string;
  huge: HugeAnswer;
};

export const GOOD_ANSWER = {
  suggestions: [
    { title: 'Audit the checkout', detail: 'List every step a buyer takes today.', estimate_hours: 3, amount: null },
    { title: 'Add Apple Pay', detail: 'Integrate the payment sheet; about USD 540.00.', estimate_hours: 6, amount: 54_000 },
  ],
};

const completion = (content: string) => ({
  id: 'chatcmpl-test', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
});

export function fakeChat(): FakeChat {
  const fake: FakeChat = { requests: [], mode: 'good', content: JSON.stringify(GOOD_ANSWER), huge: hugeAnswer() };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (!request.url.startsWith('https://chat.test/v1/')) return new Response('Outbound network is disabled in tests.', { status: 503 });
    const body = await request.json<any>();
    fake.requests.push({ url: request.url, headers: Object.fromEntries(request.headers), body });
    if (new URL(request.url).pathname !== '/v1/chat/completions') return Response.json({ error: { message: 'not found' } }, { status: 404 });
    if (fake.mode === 'down') throw new TypeError('fetch failed');
    if (fake.mode === 'slow') {
      // Answers only when the caller gives up waiting.
      await new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    if (fake.mode === 'no-schema' && body.response_format?.type === 'json_schema') {
      return Response.json({ error: { message: 'response_format json_schema is not supported', type: 'invalid_request_error' } }, { status: 400 });
    }
    if (fake.mode === 'huge') return fake.huge.response();
    if (fake.mode === 'malformed') return Response.json(completion('Sure! Here are some ideas: first, audit the checkout.'));
    return Response.json(completion(fake.content));
  });
  return fake;
}
