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
  persistAuthorization: true,
});`;
