// Inbound documents (§21) for the tests: uploading one through the API as a client would, and reading it
// on the queue as the runtime would deliver its message.
import { call } from './api';
import { deliver } from './worker';

/** A 1×1 PNG: the smallest real image. */
export const TINY_PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (ch) => ch.charCodeAt(0));

export const bytesOf = (body: Uint8Array | string) => (typeof body === 'string' ? new TextEncoder().encode(body) : body);

/** POST /v1/inbound-documents with the file as the raw body (`contentType` as its claimed type). */
export function uploadDocument(key: string, body: Uint8Array | string, options: { filename?: string; contentType?: string; headers?: Record<string, string> } = {}) {
  const query = options.filename === undefined ? '' : `?filename=${encodeURIComponent(options.filename)}`;
  const headers = { 'Content-Type': options.contentType ?? 'application/octet-stream', ...options.headers };
  return call('POST', `/v1/inbound-documents${query}`, { key, body: bytesOf(body), headers });
}

/** Delivers the document's queue message to the worker's inbound consumer, as the runtime would. */
export function readOnQueue(documentId: string, options: { database?: string; attempts?: number; messageId?: string } = {}) {
  const body = { document_id: documentId, ...(options.database && options.database !== 'DB' ? { database: options.database } : {}) };
  return deliver('workspace-inbound', [{ id: options.messageId ?? `read-${documentId}-${crypto.randomUUID()}`, body, attempts: options.attempts }]);
}
