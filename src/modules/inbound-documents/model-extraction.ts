// Reading an image or a PDF's text with the configured model (§6's providers). Not yet here: every such
// document is answered as unreadable until the model's extraction replaces this file.
import type { ModelReading } from './reading';

export async function extractWithModel(
  _env: Env,
  _input: { workspaceId: string; contentType: string; bytes?: ArrayBuffer; text?: string },
): Promise<ModelReading> {
  return { ok: false, reason: 'Images and PDFs without an e-invoice cannot be read yet.' };
}
