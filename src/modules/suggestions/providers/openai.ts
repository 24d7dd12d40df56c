// Any server that speaks OpenAI's chat-completions API at AI_BASE_URL (OpenAI itself, or llama.cpp,
// vLLM or Ollama on the user's own machine): POST {base}/chat/completions with the model, the fixed
// instructions, the job as a JSON document, and `response_format` asking for our JSON schema
// (structured output). A server that does not offer json_schema answers 400 to it; it is asked
// once more for plain JSON mode. No answer, a timeout, a 429 or a 5xx throws, and the consumer
// retries with backoff; what the model said is validated by the consumer.
import { callProvider } from '../../../lib/provider-requests';
import { jobDocument, readAnswer, SUGGESTIONS_JSON_SCHEMA, SYSTEM_PROMPT } from './prompt';
import type { SuggestionJob, SuggestionProvider } from './types';

export type OpenAiSettings = { baseUrl: string; apiKey: string; model: string; timeoutMs: number };

const structured = { type: 'json_schema', json_schema: { name: 'suggestions', strict: true, schema: SUGGESTIONS_JSON_SCHEMA } };
const plainJson = { type: 'json_object' };

export function openAiProvider(settings: OpenAiSettings): SuggestionProvider {
  async function complete(job: SuggestionJob, responseFormat: unknown) {
    return callProvider(
      `${settings.baseUrl}/chat/completions`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}) },
        body: JSON.stringify({
          model: settings.model,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: jobDocument(job) },
          ],
          response_format: responseFormat,
          temperature: 0.2,
        }),
      },
      settings.timeoutMs,
    );
  }

  return {
    name: 'openai',
    async suggest(job) {
      let answer = await complete(job, structured);
      if (!answer.ok && answer.status === 400) answer = await complete(job, plainJson);
      if (!answer.ok) throw new Error(`the chat-completions server ${answer.message}`);
      const choice = (answer.body.choices as { message?: { content?: unknown; refusal?: unknown } }[] | undefined)?.[0]?.message;
      if (typeof choice?.refusal === 'string' && choice.refusal) return { refusal: choice.refusal };
      return readAnswer(choice?.content);
    },
  };
}
