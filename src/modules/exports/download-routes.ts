// A ready bundle's download (§22): `/x/<id>?expires=…&signature=…`, the link getExport hands out, no key needed and
// valid until it expires. The worker reads the ZIP from object storage and streams it as an attachment. A link
// that is wrong or for an export not ready is a 404, saying no more; the server's own link once its bundle has
// expired (and been removed) is a 410 that says so.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { workspaceDatabases } from '../../lib/databases';
import { isId } from '../../lib/ids';
import { requestEnvFor } from '../../middleware/d1-session';
import { hostedPageRateLimit } from '../../middleware/rate-limit';
import { notFoundPage } from '../invoices/render/respond';
import { ApiError } from '../../errors';
import { checkDownload } from './bundle/download';

const expired = () => new ApiError('link_expired', 'This bundle was kept 24 hours and has been removed; ask for a new one (POST /v1/exports).');

export const exportDownloadRoutes = new Hono<AppEnv>()
  .use('*', hostedPageRateLimit)
  .get('/:id', async (c) => {
    const id = c.req.param('id');
    const link = isId('export', id) ? await checkDownload(c.env, id, c.req.query('expires'), c.req.query('signature')) : 'invalid';
    if (link === 'invalid') return notFoundPage(c);
    if (link === 'expired') throw expired();
    // The link names no database: each that holds workspaces is asked in turn, as for a hosted invoice.
    let key: string | null = null;
    for (const name of workspaceDatabases(c.env)) {
      const row = await requestEnvFor(c, name).DB.prepare("SELECT status, file_key FROM exports WHERE id = ? AND status IN ('ready', 'expired')").bind(id).first<{ status: string; file_key: string | null }>();
      if (row?.status === 'expired') throw expired();
      if (row?.file_key) {
        key = row.file_key;
        break;
      }
    }
    const object = key ? await c.env.FILES.get(key) : null;
    if (!object) return notFoundPage(c);
    const headers = new Headers({ 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Length': String(object.size) });
    object.writeHttpMetadata(headers); // Content-Type application/zip, Content-Disposition attachment
    return new Response(object.body, { headers });
  });
