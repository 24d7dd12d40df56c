// Workers AI, through the AI binding (production only: a binding in the default environment makes
// `wrangler dev` try to log in). The model is asked in JSON mode for our schema, with the job as a
// JSON document of data; whatever it answers is validated by the consumer before it is stored.
import { jobDocument, readAnswer, SUGGESTIONS_JSON_SCHEMA, SYSTEM_PROMPT } from './prompt';
import type { SuggestionJob, SuggestionProvider } from './types';

export function workersAiProvider(ai: Ai | undefined, model: string): SuggestionProvider {
  return {
    name: 'workers-ai',
    async suggest(job: SuggestionJob) {
      if (!ai) throw new Error('AI_PROVIDER is workers-ai but the worker has no AI binding (wrangler.toml [env.production.ai])');
      const result = (await ai.run(model as Parameters<Ai['run']>[0], {
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: jobDocument(job) },
        ],
        response_format: { type: 'json_schema', json_schema: SUGGESTIONS_JSON_SCHEMA },
      } as never)) as { response?: unknown };
      return readAnswer(result?.response ?? null);
    },
  };
}
