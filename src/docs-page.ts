// GET /docs: Swagger UI over /openapi.json. Its script and styles are static assets of this worker
// (public/docs/vendor, copied from swagger-ui-dist at build time), so the page needs no internet.
export const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Workspace API reference</title>
  <link rel="stylesheet" href="/docs/vendor/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/vendor/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

export const docsInitScript = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  tryItOutEnabled: true,
  // A pasted key lives only in this tab's memory: never in localStorage, where any script or later
  // user of the browser could read it.
  persistAuthorization: false,
});`;

/** Only the worker's own scripts run on /docs; it fetches only this origin and cannot be framed.
 *  (Swagger UI sets inline styles, hence 'unsafe-inline' for styles only, never for scripts.) */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
