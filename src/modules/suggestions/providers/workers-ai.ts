// Workers AI, when the AI binding exists (production only). The model is asked for JSON in the
// shape of SuggestionList; whatever it answers is validated by the consumer before it is stored.
import type { SuggestionJob, SuggestionProvider } from './types';

export function workersAiProvider(ai: Ai, model: string): SuggestionProvider {
  return {
    name: 'workers-ai',
    async suggest({ kind, task, context }: SuggestionJob) {
      const system = [
        'You help a freelancer with a task. Answer with JSON only: an array of 1 to 12 objects',
        '{"title": string, "detail": string, "estimate_hours"?: number, "amount"?: integer minor units}.',
        `Kind of help wanted: ${kind}.`,
        context.project ? `Project: ${context.project.name}, currency ${context.project.currency}, hourly rate ${context.project.hourlyRate ?? 'unknown'} minor units.` : '',
        context.history.medianRate ? `Their median invoiced rate: ${context.history.medianRate} minor units of ${context.history.currency} per hour.` : '',
      ].join(' ');
      const result = (await ai.run(model as Parameters<Ai['run']>[0], {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: task },
        ],
      } as never)) as { response?: unknown };
      const text = typeof result?.response === 'string' ? result.response : JSON.stringify(result?.response ?? null);
      try {
        return JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
      } catch {
        return text; // not JSON: the consumer's validation turns it into a failed job
      }
    },
  };
}
