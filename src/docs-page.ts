// GET /docs: Swagger UI over /openapi.json. Its script and styles are static assets of this worker
// (public/docs/vendor, copied from swagger-ui-dist at build time), so the page needs no internet.
export const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Workspace API reference</title>
  <link rel="stylesheet" href="/docs/vendor/swagger-ui.css">
  <!-- The document loads while the script does; the page's fetch() then takes it from here. -->
  <link rel="preload" href="/openapi.json" as="fetch" crossorigin="anonymous">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/vendor/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

type ViewOperation = { summary?: string; description?: string; parameters?: unknown[]; responses?: unknown };

/**
 * The reference's view of the document: an operation served under both listings is written once,
 * under /v1/clients, and /api/workflow/clients is a path item that refers to it (openapi/listings.ts).
 * The view lists it once, under its /v1 path, with a summary that names the other path too. What
 * every webhook delivery shares (its headers and the receiver's answer) is declared once, on
 * `webhook.test` (webhooks/openapi.ts); the view shows it on every event type.
 * Self-contained: it runs in the page (docsInitScript carries its source) and in tests.
 */
export function docsView(spec: { paths: Record<string, Record<string, ViewOperation> & { $ref?: string }>; webhooks?: Record<string, { post?: ViewOperation }> }) {
  const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  const paths: typeof spec.paths = {};
  const alsoAt: Record<string, string[]> = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    const ref = item.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/paths/')) paths[path] = item;
    // The pointer decoded as referencedPath (openapi/listings.ts) does it: written out, as this function cannot import.
    else (alsoAt[decodeURIComponent(ref.slice('#/paths/'.length)).replaceAll('~1', '/').replaceAll('~0', '~')] ??= []).push(path);
  }
  for (const [path, others] of Object.entries(alsoAt)) {
    const item = paths[path];
    if (!item) continue;
    const view: typeof item = { ...item };
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method) || typeof operation !== 'object') continue;
      const also = `Also served as ${others.map((other) => `\`${method.toUpperCase()} ${other}\``).join(', ')}.`;
      view[method] = { ...operation, summary: `${operation.summary ?? ''} (also ${others.join(', ')})`, description: [also, operation.description].filter(Boolean).join('\n\n') };
    }
    paths[path] = view;
  }
  const delivery = spec.webhooks?.['webhook.test']?.post;
  const webhooks = Object.fromEntries(Object.entries(spec.webhooks ?? {}).map(([type, item]) => [
    type,
    item.post && delivery ? { ...item, post: { parameters: delivery.parameters, responses: delivery.responses, ...item.post } } : item,
  ]));
  return { ...spec, paths, ...(spec.webhooks ? { webhooks } : {}) };
}

/** Enough of an Immutable.js sequence for the list below. */
type Seq<T> = { size: number; map<U>(fn: (value: T, key: string) => U): Seq<U>; valueSeq(): Seq<T>; toArray(): T[]; get(key: string): any };
type Listing = {
  specSelectors: { taggedOperations(): Seq<Seq<unknown>>; validOperationMethods(): string[]; url(): string };
  getComponent(name: string, container?: boolean): unknown;
  [prop: string]: unknown;
};

/**
 * A Swagger UI plugin: the operations list rendered whole, every tag with its operations (collapsed).
 * Swagger UI 5.33 on virtualizes that list once it holds 150 tags and operations: only the entries in
 * view are in the page, so the browser's find, a reader's Ctrl+F for an operation, and anything that
 * reads the page see the first tags only (ours holds 162 since §21–§24, and showed Meta and Access).
 * This is the list it renders below that count, whatever the count, at some 0.2 s of a 2-core
 * machine's CPU for ours. Self-contained: it runs in the page (docsInitScript carries its source).
 */
export function operationsInFull(system: { React: { createElement(type: unknown, props: object | null, ...children: unknown[]): unknown } }) {
  const h = system.React.createElement;
  const operations = ({ specSelectors, getComponent, oas3Selectors, layoutSelectors, layoutActions, getConfigs }: Listing) => {
    const tagged = specSelectors.taggedOperations();
    const methods = specSelectors.validOperationMethods();
    if (!tagged.size) return h('h3', null, 'No operations defined in spec!');
    const OperationTag = getComponent('OperationTag');
    const OperationContainer = getComponent('OperationContainer', true);
    const specUrl = specSelectors.url();
    return h('div', null, tagged.map((tagObj, tag) => h(
      OperationTag,
      { key: `operation-${tag}`, tagObj, tag, oas3Selectors, layoutSelectors, layoutActions, getConfigs, getComponent, specUrl },
      h('div', { className: 'operation-tag-content' }, (tagObj.get('operations') as Seq<Seq<unknown>>).map((op) => {
        const path = op.get('path');
        const method = op.get('method');
        return methods.includes(method) ? h(OperationContainer, { key: `${path}-${method}`, specPath: op.get('specPath'), op, path, method, tag }) : null;
      }).toArray()),
    )).valueSeq().toArray());
  };
  return { components: { operations } };
}

export const docsInitScript = `const docsView = ${docsView.toString()};
const operationsInFull = ${operationsInFull.toString()};
fetch('/openapi.json').then((res) => res.json()).then((spec) => {
  window.ui = SwaggerUIBundle({
    spec: docsView(spec),
    dom_id: '#reference',
    deepLinking: true,
    tryItOutEnabled: true,
    filter: true,
    // The schemas section would render every model up front; each operation shows its own.
    defaultModelsExpandDepth: -1,
    // Swagger UI resolves components.securitySchemes on load, and for OpenAPI 3.1 its resolver
    // first converts the whole document (seconds of CPU for ours). Ours hold no references, so the
    // list renders from the document as it is; an operation's own references are still resolved
    // when it is opened.
    // And it reads the document it is given back from text with a YAML parser, which takes a
    // JSON document many times as long as JSON.parse does.
    plugins: [operationsInFull, () => ({
      statePlugins: {
        spec: {
          wrapActions: {
            requestResolvedSubtree: (original) => (path) => (path[0] === 'components' && path[1] === 'securitySchemes' ? undefined : original(path)),
            parseToJson: (original, system) => (text) => {
              let json;
              try {
                json = JSON.parse(text || system.specSelectors.specStr());
              } catch {
                return original(text);
              }
              system.errActions.clear({ source: 'parser' });
              return system.specActions.updateJsonSpec(json);
            },
          },
        },
      },
    })],
    // A pasted key lives only in this tab's memory: never in localStorage, where any script or later
    // user of the browser could read it.
    persistAuthorization: false,
  });
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
