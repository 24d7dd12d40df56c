// Inbound documents under /v1 (§21): upload one (the file as the body), list them, read one and its original.
import { z } from '@hono/zod-openapi';
import { defineRoute, jsonContent } from '../../http/define-route';
import { headerRefs } from '../../http/response-headers';
import { decodeCursor, toPage } from '../../lib/pagination';
import { createRouter } from '../../lib/router';
import { idParams, text } from '../../lib/schemas';
import { MAX_DOCUMENT_BYTES, receiveDocument } from './receive';
import * as S from './schemas';
import { serializeInboundDocument } from './serialize';
import { getInboundDocument, inboundDocumentFile, listInboundDocuments } from './service';

const tags = ['Inbound documents'];
const params = idParams('inboundDocument');

// The file's media types, each without a schema (a file is bytes): the document's size budget is tight.
const FILE_TYPES = ['application/pdf', 'application/xml', 'image/jpeg', 'image/png', 'image/webp'];
const asFile = Object.fromEntries(FILE_TYPES.map((type) => [type, {}]));

const UploadQuery = z.object({ filename: text(255).optional() });

export const inboundDocumentRoutes = createRouter()
  .openapi(
    defineRoute({
      method: 'post', path: '/inbound-documents', operationId: 'uploadInboundDocument', tags, access: 'user', role: 'member', upload: MAX_DOCUMENT_BYTES,
      summary: 'Upload a document to be read',
      description: 'The file as the body, or as the form field `file`; at most 10 MB. Its type is read from its bytes (415 if none of these). Read on a queue. 500 a day per workspace.',
      request: {
        query: UploadQuery,
        body: { required: true, content: { ...asFile, 'multipart/form-data': { schema: { type: 'object', properties: { file: { format: 'binary' } }, required: ['file'] } } } },
      },
      responses: { 202: { ...jsonContent(S.InboundDocument, 'Received; queued to be read.'), headers: headerRefs('Location') } },
    }),
    async (c) => {
      const ctx = c.get('ctx');
      const upload = c.get('upload')!;
      const row = await receiveDocument(ctx, { source: 'upload', bytes: upload.bytes, filename: upload.filename, userId: ctx.userId });
      c.header('Location', `/v1/inbound-documents/${row.id}`);
      return c.json(serializeInboundDocument(row), 202);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/inbound-documents', operationId: 'listInboundDocuments', tags, access: 'user', role: 'viewer',
      summary: 'List inbound documents',
      request: { query: S.InboundDocumentQuery },
      responses: { 200: jsonContent(S.InboundDocumentPage, 'A page of documents, newest first.') },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listInboundDocuments(c.get('ctx'), { ...query, beforeId: decodeCursor(query.cursor, 'inboundDocument') });
      return c.json(toPage(rows, query.limit, serializeInboundDocument), 200);
    },
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/inbound-documents/{id}', operationId: 'getInboundDocument', tags, access: 'user', role: 'viewer',
      summary: 'Get an inbound document',
      request: { params },
      responses: { 200: jsonContent(S.InboundDocument, 'The document, with what was read from it.') },
    }),
    async (c) => c.json(serializeInboundDocument(await getInboundDocument(c.get('ctx'), c.req.valid('param').id)), 200),
  )
  .openapi(
    defineRoute({
      method: 'get', path: '/inbound-documents/{id}/file', operationId: 'getInboundDocumentFile', tags, access: 'user', role: 'viewer',
      summary: 'Download the original file',
      description: 'Unchanged, as an attachment (`Content-Security-Policy: sandbox`).',
      request: { params },
      responses: { 200: { description: 'The file.', content: asFile } },
    }),
    async (c) => {
      const { row, body } = await inboundDocumentFile(c.get('ctx'), c.req.valid('param').id);
      return new Response(body, {
        status: 200,
        headers: {
          'Content-Type': row.contentType,
          'Content-Length': String(row.size),
          'Content-Disposition': attachment(row.filename),
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': 'sandbox',
          'Cache-Control': 'no-store',
        },
      });
    },
  );

/** `attachment` with the name as ASCII (others as `_`, quotes and backslashes too) and in full as RFC 5987 UTF-8. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
