// Every response a test receives is checked against /openapi.json: the operation must document the
// status, and a JSON body must match the schema declared for it. An undocumented status, a body
// where none is declared (204, 304), a field of the wrong type, or a number too large to be exact
// in JSON fails the test that made the request. Responses outside the document (unknown routes)
// must still be the error envelope when they are errors.
import { Validator } from '@cfworker/json-schema';
import { exports } from 'cloudflare:workers';
import { errorRangeStatuses } from '../../src/http/error-ranges';
import { referencedPath } from '../../src/openapi/listings';

type Schema = Record<string, unknown>;
type Operation = { responses: Record<string, { $ref?: string; description?: string; content?: { 'application/json'?: { schema: Schema } } }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };
type Route = { path: string; pattern: RegExp; literals: number };

// Loaded once per run, through the worker. Each test file has its own module graph in the pool,
// but the files of a test worker share its runtime (vitest.config.ts), and the document is the same
// for all of them: the document and the validators are kept on the runtime's global object, so
// that each file does not fetch and parse it again and build each validator again (a validator
// walks the whole document's components when it is built).
type Cache = { documentPromise?: Promise<{ doc: Document; routes: Route[] }>; validators: Map<string, Validator> };
const cache: Cache = ((globalThis as { contractCheckCache?: Cache }).contractCheckCache ??= { validators: new Map() });
const validators = cache.validators;

function load() {
  return (cache.documentPromise ??= (async () => {
    const res = await exports.default.fetch(new Request('https://workspace.test/openapi.json'));
    if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}`);
    const doc = (await res.json()) as Document;
    const routes = Object.keys(doc.paths).map((path) => ({ path, pattern: templatePattern(path), literals: literalSegments(path) }));
    // A literal segment beats a template: /v1/things/export must not be read as /v1/things/{id}.
    routes.sort((a, b) => b.literals - a.literals);
    return { doc, routes };
  })());
}

const isTemplate = (segment: string) => /^\{[^/]+\}$/.test(segment);
const literalSegments = (path: string) => path.split('/').filter((s) => s && !isTemplate(s)).length;

/** /v1/clients/{id} → ^/v1/clients/[^/]+$ (a template segment is one non-empty path segment). */
export function templatePattern(path: string): RegExp {
  const segments = path.split('/').map((segment) => (isTemplate(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}

/** The documented path template a concrete path falls under, if any. */
export async function matchRoute(path: string): Promise<string | undefined> {
  const { routes } = await load();
  return routes.find((r) => r.pattern.test(path))?.path;
}

const ENVELOPE = { $ref: '#/components/schemas/Error' };

/** Throws when the response breaks the document. */
export async function checkAgainstDocument(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
  headers?: Headers,
) {
  const { doc } = await load();
  if (headers && !headers.get('X-Request-Id')) throw new Error(`${method} ${url} ${status} has no X-Request-Id`);
  const path = new URL(url).pathname;
  const template = await matchRoute(path);
  // An /api/workflow path item that refers to its /v1 twin is that operation.
  const item = template ? doc.paths[template] : undefined;
  const operation = item ? (doc.paths[referencedPath(item) ?? template!] ?? item)[method.toLowerCase()] : undefined;
  if (!operation) {
    // The hosted invoice pages (/i/<token>) are for people: their 404 is a page, not the envelope.
    if (path.startsWith('/i/')) return;
    // Not an operation of the document: /docs and its script are pages; anything else that fails
    // (an unknown route or method, a body refused before routing) must be the envelope.
    if (status >= 400) {
      if (!contentType?.includes('application/json')) throw new Error(`${method} ${path} answered ${status} without the JSON error envelope`);
      validate(`envelope ${status}`, ENVELOPE, body);
    }
    return;
  }
  const label = `${method} ${template}`;
  // Error responses every operation shares are references to components.responses. A status
  // without its own entry counts as documented only when the operation's range entry (`4XX`) names it.
  const resolve = (answer: Operation['responses'][string] | undefined) =>
    answer && '$ref' in answer ? (doc.components.responses as Record<string, Operation['responses'][string]>)[String(answer.$ref).split('/').pop()!] : answer;
  const range = resolve(operation.responses[`${String(status)[0]}XX`]);
  const inRange = range && errorRangeStatuses(String(range.description ?? '')).includes(status) ? range : undefined;
  const declared = resolve(operation.responses[String(status)]) ?? inRange ?? resolve(operation.responses.default);
  if (!declared) throw new Error(`${label} answered ${status}, which /openapi.json does not document (documented: ${Object.keys(operation.responses).join(', ')}${range ? `; its range names ${errorRangeStatuses(String(range.description ?? '')).join(', ')}` : ''})\n${JSON.stringify(body).slice(0, 500)}`);
  const schema = declared.content?.['application/json']?.schema;
  // A page or a file (text/html, application/pdf) is checked for its declared type only.
  const declaredTypes = Object.keys(declared.content ?? {}).filter((type) => type !== 'application/json');
  if (!schema && declaredTypes.length) {
    if (!declaredTypes.some((type) => contentType?.includes(type))) throw new Error(`${label} ${status} came as ${contentType}, not ${declaredTypes.join(' or ')}`);
    return;
  }
  if (!schema) {
    if (body !== '' && body !== undefined && body !== null) throw new Error(`${label} ${status} has a body the document does not declare`);
    return;
  }
  if (!contentType?.includes('application/json')) throw new Error(`${label} ${status} is declared as JSON but came as ${contentType ?? 'no content type'}`);
  validate(`${label} ${status}`, schema, body);
  const unsafe = unsafeNumbers(body);
  if (unsafe.length) throw new Error(`${label} ${status} has numbers beyond 2^53, which JSON clients cannot read exactly: ${unsafe.slice(0, 3).join(', ')}`);
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

/** Paths of numbers a JSON client would round (money must be exact). */
function unsafeNumbers(value: unknown, at = ''): string[] {
  if (typeof value === 'number') return Number.isSafeInteger(value) || !Number.isInteger(value) ? [] : [`${at || '/'}=${value}`];
  if (Array.isArray(value)) return value.flatMap((v, i) => unsafeNumbers(v, `${at}/${i}`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => unsafeNumbers(v, `${at}/${k}`));
  return [];
}

let components: unknown;
function documentComponents() {
  return components;
}

export async function primeContract() {
  components = (await load()).doc.components;
}
