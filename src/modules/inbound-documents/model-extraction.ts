// A PDF without XML, or a photo of a receipt, read by the configured model (§21 "Processing", through §6's
// providers): `local` reads nothing and leaves the document for a person; `openai` and `workers-ai` are asked to
// fill in `Extracted`, at most 10 times a minute per workspace (§7), and what they answer is checked like any input.
//
// What a person would expect when the model lets them down decides the outcomes. The document is not at fault, so
// it is never `failed` for the model's sake: an answer that is garbage, past 1 MB or a refusal leaves it in review
// with nothing filled in and a warning saying why (asking again would cost quota for the same answer); a provider
// that is slow, down or busy, or the workspace's limit, is a reading to retry later (`retryAfter`), since a minute
// later the same document is likely read after all. Nothing throws out of here.
import { config } from '../../config';
import { secondsToWindowEnd } from '../../middleware/rate-limit';
import { checkModelAnswer } from './model-answer';
import { MODEL_TEXT_MAX_CHARS, type DocumentContent } from './model-prompt';
import { askChatCompletions, askWorkersAi, type ModelCall } from './model-providers';
import type { ModelReading } from './reading';
import type { RuleIssueValue } from './schemas';

/** §7's limit, which AI_RATE_LIMITER's `simple.limit` in wrangler.toml enforces; counted in its own bucket per workspace, apart from the co-pilot's. */
export const MODEL_EXTRACTIONS_PER_MINUTE = 10;
const limitBucket = (workspaceId: string) => `inbound-model:${workspaceId}`;

/** How long a provider that did not answer is left alone before the same document is tried again. */
export const PROVIDER_RETRY_SECONDS = 60;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);

export type ModelInput = { workspaceId: string; contentType: string; bytes?: ArrayBuffer; text?: string };

const nothingRead = (rule: string, message: string): ModelReading => ({ ok: true, extracted: null, confidence: null, warnings: [{ rule, message, path: null }] });

/** The reading of a document the model could not be asked for in the end (the consumer's retries ran out): in review, empty, with the reason. */
export const unreadByModel = (reason: string): ModelReading =>
  nothingRead('MODEL-UNAVAILABLE', `The model could not read the document (${reason}): fill in the fields from the document.`);

/** What goes to the model: the image's bytes, or the PDF's text (cut to what a model is given, with a warning). */
function documentOf(input: ModelInput): { document: DocumentContent; warnings: RuleIssueValue[] } | { error: string } | { empty: true } {
  const contentType = input.contentType.split(';')[0]!.trim().toLowerCase();
  if (IMAGE_TYPES.has(contentType)) {
    if (!input.bytes?.byteLength) return { error: `An image (${contentType}) goes to the model as its bytes, and none were given.` };
    return { document: { image: { contentType, bytes: input.bytes } }, warnings: [] };
  }
  if (input.text === undefined) return { error: `A ${contentType} document goes to the model as its text, and none was given.` };
  const text = input.text.trim();
  if (!text) return { empty: true };
  if (text.length <= MODEL_TEXT_MAX_CHARS) return { document: { text }, warnings: [] };
  const cut = { rule: 'MODEL-TEXT-CUT', message: `Only the first ${MODEL_TEXT_MAX_CHARS} of the document's ${text.length} characters were given to the model.`, path: null };
  return { document: { text: text.slice(0, MODEL_TEXT_MAX_CHARS) }, warnings: [cut] };
}

function ask(env: Env, document: DocumentContent): Promise<ModelCall> {
  const cfg = config(env);
  if (cfg.AI_PROVIDER === 'openai') {
    return askChatCompletions({ baseUrl: cfg.AI_BASE_URL, apiKey: cfg.AI_API_KEY, model: cfg.AI_MODEL, timeoutMs: cfg.AI_TIMEOUT_MS }, document);
  }
  return askWorkersAi((env as { AI?: Ai }).AI, cfg.AI_TIMEOUT_MS, document);
}

export async function extractWithModel(env: Env, input: ModelInput): Promise<ModelReading> {
  try {
    // No model: the document waits for a person, whatever it is.
    if (config(env).AI_PROVIDER === 'local') return { ok: true, extracted: null, confidence: null, warnings: [] };
    const read = documentOf(input);
    if ('error' in read) return { ok: false, reason: read.error };
    if ('empty' in read) return nothingRead('MODEL-NO-TEXT', 'The PDF has no text to read (a scan?): fill in the fields from the document.');

    const { success } = await env.AI_RATE_LIMITER.limit({ key: limitBucket(input.workspaceId) });
    if (!success) {
      return { ok: false, reason: `At most ${MODEL_EXTRACTIONS_PER_MINUTE} documents a minute per workspace are read by the model.`, retryAfter: secondsToWindowEnd() };
    }
    const call = await ask(env, read.document);
    if (!call.ok) {
      if (call.retry) return { ok: false, reason: `The model did not answer: ${call.reason}.`, retryAfter: PROVIDER_RETRY_SECONDS };
      return nothingRead('MODEL-UNUSABLE', `The model's answer could not be used (${call.reason}): fill in the fields from the document.`);
    }
    const checked = checkModelAnswer(call.content);
    return { ok: true, ...checked, warnings: [...read.warnings, ...checked.warnings] };
  } catch (err) {
    // A binding or the configuration failing: nothing the document did, so it is tried again later.
    return { ok: false, reason: `The model could not be asked (${err instanceof Error ? err.message : String(err)}).`, retryAfter: PROVIDER_RETRY_SECONDS };
  }
}
