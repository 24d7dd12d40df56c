// Every response a test receives is checked against /openapi.json: the operation must document the
// status, and a JSON body must match the schema declared for it. An undocumented status or a field
// of the wrong type fails the test that made the request.
import { Validator } from '@cfworker/json-schema';
import { exports } from 'cloudflare:workers';

type Schema = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

let documentPromise: Promise<{ doc: Document; routes: { pattern: RegExp; path: string }[] }> | undefined;
const validators = new Map<string, Validator>();

function load() {
  documentPromise ??= (async () => {
    const res = await exports.default.fetch(new Request('https://workspace.test/openapi.json'));
    const doc = (await res.json()) as Document;
    const routes = Object.keys(doc.paths).map((path) => ({ path, pattern: templatePattern(path) }));
    return { doc, routes };
  })();
  return documentPromise;
}

/** /v1/clients/{id} → ^/v1/clients/[^/]+$ */
function templatePattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/** Throws when the response breaks the document; returns quietly for pages outside it (/docs). */
export async function checkAgainstDocument(method: string, url: string, status: number, contentType: string | null, body: unknown) {
  const { doc, routes } = await load();
  const path = new URL(url).pathname;
  const route = routes.find((r) => r.pattern.test(path));
  const operation = route ? doc.paths[route.path]![method.toLowerCase()] : undefined;
  if (!operation) {
    // Unknown routes and methods answer the error envelope; anything else here is not an API route.
    if (status === 404 && contentType?.includes('application/json')) return validate('Error', { $ref: '#/components/schemas/Error' }, body);
    return;
  }
  const declared = operation.responses[String(status)] ?? operation.responses.default;
  if (!declared) throw new Error(`${method} ${route!.path} answered ${status}, which /openapi.json does not document`);
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) {
    if (body !== '' && body !== undefined) throw new Error(`${method} ${route!.path} ${status} has a body the document does not declare`);
    return;
  }
  validate(`${method} ${route!.path} ${status}`, schema, body);
}

function validate(key: string, schema: Schema, body: unknown) {
  let validator = validators.get(key);
  if (!validator) {
    validator = new Validator({ ...schema, components: documentComponents() } as never, '2020-12', false);
    validators.set(key, validator);
  }
  const result = validator.validate(body);
  if (!result.valid) {
    const errors = result.errors.slice(0, 5).map((e) => `${e.instanceLocation}: ${e.error}`).join('; ');
    throw new Error(`Response to ${key} does not match /openapi.json: ${errors}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}

let components: unknown;
function documentComponents() {
  return components;
}

export async function primeContract() {
  components = (await load()).doc.components;
}
