// The two model providers of §6 asked to read a document, each as its documentation describes it. Both answer the
// same: what the model wrote, or why there is nothing, and whether asking again later may help (`retry`: no answer
// in time, no connection, a 429 or a 5xx) or not (an answer that is garbage, past 1 MB, a refusal, another 4xx).
// Every answer is read by the one bounded reader (lib/provider-requests.ts) within AI_TIMEOUT_MS.
import { callProvider, readProviderAnswer, type ProviderAnswer } from '../../lib/provider-requests';
import { EXTRACTION_INSTRUCTIONS, extractionJsonSchema, userContent, type DocumentContent } from './model-prompt';

export type ModelCall = { ok: true; content: unknown } | { ok: false; retry: boolean; reason: string };

/**
 * Workers AI's model for documents: Llama 4 Scout reads images (as data URLs in `image_url` parts) and offers JSON
 * mode with a schema; Llama 3.2 Vision offers no JSON mode and needs its licence accepted once per account first.
 * Not AI_MODEL, which names the co-pilot's text model.
 */
export const WORKERS_AI_DOCUMENT_MODEL = '@cf/meta/llama-4-scout-17b-16e-instruct';

/** Room for the answer: Workers AI's default of 256 tokens ends a receipt's JSON in the middle. */
const MAX_ANSWER_TOKENS = 4096;

function failed(answer: Extract<ProviderAnswer, { ok: false }>, who: string): ModelCall {
  const { status } = answer;
  const retry = status === null || status === 408 || status === 429 || status >= 500;
  return { ok: false, retry, reason: `${who} ${answer.message}` };
}

const messages = (document: DocumentContent, instructions = EXTRACTION_INSTRUCTIONS): { role: string; content: ReturnType<typeof userContent> }[] => [
  { role: 'system', content: instructions },
  { role: 'user', content: userContent(document) },
];

export type ChatSettings = { baseUrl: string; apiKey: string; model: string; timeoutMs: number };

/**
 * Any server that speaks OpenAI's chat-completions API: POST {base}/chat/completions with the schema as structured
 * output. A server without json_schema answers 400 to it, and is asked once more in plain JSON mode, with the schema
 * in the instructions instead.
 */
export async function askChatCompletions(settings: ChatSettings, document: DocumentContent): Promise<ModelCall> {
  const schema = extractionJsonSchema();
  const ask = (responseFormat: unknown, instructions?: string) =>
    callProvider(
      `${settings.baseUrl}/chat/completions`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}) },
        body: JSON.stringify({ model: settings.model, messages: messages(document, instructions), response_format: responseFormat, temperature: 0 }),
      },
      settings.timeoutMs,
    );
  let answer = await ask({ type: 'json_schema', json_schema: { name: 'extracted_document', strict: true, schema } });
  if (!answer.ok && answer.status === 400) answer = await ask({ type: 'json_object' }, `${EXTRACTION_INSTRUCTIONS} The schema: ${JSON.stringify(schema)}`);
  if (!answer.ok) return failed(answer, 'the chat-completions server');
  const choice = (answer.body.choices as { message?: { content?: unknown; refusal?: unknown } }[] | undefined)?.[0]?.message;
  if (typeof choice?.refusal === 'string' && choice.refusal) return { ok: false, retry: false, reason: `the model refused: ${choice.refusal.slice(0, 200)}` };
  return { ok: true, content: choice?.content };
}

/**
 * Workers AI through the AI binding, in JSON mode with the schema. The binding is asked for its raw response, so the
 * answer is read like any outside answer (bounded), and within the same time limit through its abort signal.
 */
export async function askWorkersAi(ai: Ai | undefined, timeoutMs: number, document: DocumentContent): Promise<ModelCall> {
  if (!ai) return { ok: false, retry: true, reason: 'AI_PROVIDER is workers-ai but the worker has no AI binding (wrangler.toml [env.production.ai])' };
  const inputs: Ai_Cf_Meta_Llama_4_Scout_17B_16E_Instruct_Messages = {
    messages: messages(document),
    response_format: { type: 'json_schema', json_schema: extractionJsonSchema() },
    max_tokens: MAX_ANSWER_TOKENS,
    temperature: 0,
  };
  let res: Response;
  try {
    res = await ai.run(WORKERS_AI_DOCUMENT_MODEL, inputs, { returnRawResponse: true, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return { ok: false, retry: true, reason: `Workers AI did not answer (${err instanceof Error ? err.name : 'error'})` };
  }
  const answer = await readProviderAnswer(res);
  if (!answer.ok) return failed(answer, 'Workers AI');
  return { ok: true, content: answer.body.response };
}
