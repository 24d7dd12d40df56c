import { z } from '@hono/zod-openapi';
import { idSchema, longText, timestampSchema } from '../../lib/schemas';

export const SuggestionKind = z.enum(['plan', 'estimate', 'pricing', 'message']);
export const SuggestionStatus = z.enum(['queued', 'completed', 'failed']);

export const SuggestBody = z
  .strictObject({
    task: longText(2000).min(1).openapi({ example: 'Redesign the checkout page and add Apple Pay' }),
    kind: SuggestionKind.default('plan').openapi({ description: 'plan (steps), estimate (hours), pricing (rates and quotes), message (a draft to the client).' }),
    project_id: idSchema('project').nullish().openapi({ description: 'One of your projects, for context; 422 otherwise.' }),
  })
  .openapi('SuggestRequest');

/** One suggestion, as any provider must return it; a model's answer is checked against this. */
export const SuggestionItem = z
  .object({
    title: z.string().trim().min(1).max(200),
    detail: z.string().trim().min(1).max(4000),
    estimate_hours: z.number().min(0).max(10_000).optional(),
    amount: z.number().int().min(0).optional().openapi({ description: 'Minor units of the currency named in `detail`.' }),
  })
  .openapi('SuggestionItem');

export const SuggestionList = z.array(SuggestionItem).min(1).max(12);

export const QueuedSuggestion = z
  .object({ id: idSchema('suggestion'), status: z.literal('queued'), kind: SuggestionKind, task: z.string(), created_at: timestampSchema })
  .openapi('QueuedSuggestion');

export const Suggestion = z
  .object({
    id: idSchema('suggestion'),
    status: SuggestionStatus,
    kind: SuggestionKind,
    task: z.string(),
    project_id: z.string().nullable(),
    provider: z.string().nullable().openapi({ description: 'Who answered: "openai" (a chat-completions server), "workers-ai", or "local" (no model: worked out from the task text and your records).' }),
    sample: z.boolean().openapi({ description: 'true when no model wrote the suggestions (provider "local"): a sample worked out by rules, whose first suggestion says so.' }),
    suggestions: z.array(SuggestionItem),
    error: z.string().nullable(),
    created_at: timestampSchema,
    completed_at: timestampSchema.nullable(),
  })
  .openapi('Suggestion');

export type SuggestionKindValue = z.infer<typeof SuggestionKind>;
export type SuggestionItemValue = z.infer<typeof SuggestionItem>;
