// What one fuzz case sends to an operation of /openapi.json: which id goes in the path, what query,
// what body, what headers, and which of them are deliberately wrong.
import fc from 'fast-check';
import { type Parameter, parametersIn, paramPrefix, type Route } from '../route-table';
import { type Components, hostileString, hostileValue, invalidMutation, type Mutation, resolve, validValue } from './schema-arbitrary';

export type IdChoice =
  | { kind: 'own'; state: number } // one of the caller's records, in one of its states (records.ts)
  | { kind: 'unknown' } // well formed, but no such record
  | { kind: 'malformed'; value: string };

export type BodyChoice =
  | { kind: 'none' }
  | { kind: 'valid'; value: unknown }
  | { kind: 'invalid'; mutation: Mutation }
  | { kind: 'hostile'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string; expect: 400 | 415 | 422 };

export type FuzzCase = {
  id: IdChoice | null;
  query: Record<string, string | string[]>;
  queryValid: boolean;
  body: BodyChoice;
  /** A deliberately broken Authorization header (keyed routes only). */
  badAuth: string | null;
  /** A new key per request, none, or a given (perhaps broken) value. */
  idempotencyKey: 'fresh' | null | { value: string };
};

function malformedIds(prefix: string | null, pattern: RegExp) {
  const p = prefix ?? 'xxx';
  const ulid = '01JD5ZQ5X8Y4V1N2K3M4P5Q6R7';
  return fc
    .oneof(
      fc.constantFrom(
        `${p}_`, `${p}_${ulid.toLowerCase()}`, `${p}_${ulid.slice(0, -1)}`, `${p}_${ulid}X`, `${p}_${ulid.slice(0, -1)}U`,
        `${p === 'inv' ? 'cli' : 'inv'}_${ulid}`, `${p}-${ulid}`, `${p.toUpperCase()}_${ulid}`, `${p}_${ulid} `, ' ', '0', '-1',
        'null', 'undefined', 'me', "1' OR '1'='1", '%00', '%2e%2e', 'a/b', '*', `${p}_${'0'.repeat(500)}`,
      ),
      hostileString.filter((s) => s.length > 0 && s.length < 4_000),
    )
    // "." and ".." are dot segments: the URL drops them, so the request is for another path altogether.
    .filter((id) => !pattern.test(id) && id !== '.' && id !== '..');
}

/** Values for one query parameter: what it documents, or junk. */
function queryValue(param: Parameter, components: Components, valid: boolean): fc.Arbitrary<string | string[] | undefined> {
  // A cursor is opaque: the only valid one is a next_cursor the server gave, so valid cases omit it.
  if (param.name === 'cursor') return valid ? fc.constant(undefined) : fc.option(hostileString, { nil: undefined });
  if (!valid) {
    return fc.oneof(
      hostileString,
      hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
      fc.array(hostileString, { minLength: 2, maxLength: 3 }), // ?status=a&status=b
      fc.constant(undefined),
    );
  }
  return fc.option(
    validValue(param.schema ?? {}, components, param.name).map((v) => (v === null || v === undefined ? undefined : String(v))),
    { nil: undefined, freq: 2 },
  );
}

function queryArbitrary(route: Route, components: Components, valid: boolean) {
  const params = parametersIn(route, 'query');
  if (!params.length) return fc.constant({});
  return fc
    .tuple(...params.map((p) => queryValue(p, components, valid).map((v) => [p.name, v] as const)))
    .map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)) as Record<string, string | string[]>);
}

/** Bodies that are not a JSON object, by the status they must get: 400 (no JSON), 422 (not an object), 415 (not JSON). */
const rawBodiesByStatus = [
  fc.constantFrom('{', '{"a":', '[1,2', 'undefined', "{'single': 'quotes'}", '{"a":1}{"b":2}', '\u0000', 'NaN', '{"a": 01}')
    .map((text) => ({ text, contentType: 'application/json', expect: 400 as const })),
  // …including JSON nested 30,000 deep, which a recursive parser or serializer would not survive.
  fc.constantFrom('[]', '[{}]', '"text"', '42', 'null', 'true', `${'['.repeat(30_000)}${']'.repeat(30_000)}`)
    .map((text) => ({ text, contentType: 'application/json', expect: 422 as const })),
  fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'json')
    .map((contentType) => ({ text: '{"name":"x"}', contentType, expect: 415 as const })),
];

type Weighted<T> = { weight: number; arbitrary: fc.Arbitrary<T> };

/** The kinds of body the operation gets, each with how often it is drawn; none without a body schema. */
function bodyKinds(route: Route, components: Components): Weighted<BodyChoice>[] {
  const schema = route.operation.requestBody?.content['application/json']?.schema;
  if (!schema) return [];
  const valid = validValue(schema, components);
  const resolved = resolve(schema, components);
  const keys = Object.keys(resolved.properties ?? {});
  return [
    { weight: 5, arbitrary: valid.map((value): BodyChoice => ({ kind: 'valid', value })) },
    {
      weight: 4,
      arbitrary: fc.tuple(valid, fc.nat(), hostileValue).map(([value, pick, junk]): BodyChoice => {
        const mutation = invalidMutation(resolved, components, value, pick, junk);
        return mutation ? { kind: 'invalid', mutation } : { kind: 'valid', value };
      }),
    },
    {
      // Junk in one field: perhaps acceptable junk, which must then simply be stored.
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat(), hostileValue).map(([value, pick, junk]): BodyChoice =>
        keys.length ? { kind: 'hostile', value: { ...(value as object), [keys[pick % keys.length]!]: junk } } : { kind: 'hostile', value: junk }),
    },
    { weight: 1, arbitrary: hostileValue.map((value): BodyChoice => ({ kind: 'hostile', value })) },
    { weight: 1, arbitrary: fc.oneof(...rawBodiesByStatus).map((raw): BodyChoice => ({ kind: 'raw', ...raw })) },
  ];
}

const badAuthorization = fc.constantFrom(
  'Bearer', 'Bearer ', 'Bearer wsk_', 'Basic dXNlcjpwYXNz', 'bearer wsk_0000000000000000000000000000000000000000',
  `Bearer wsk_${'A'.repeat(5_000)}`, 'Bearer wsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA extra', 'Bearer key_01JD5ZQ5X8Y4V1N2K3M4P5Q6R7',
  "Bearer ' OR 1=1 --", 'Bearer wsk_0000000000000000000000000000000000000000',
);

/** The kinds of path id the operation gets, each with how often it is drawn; none without a path id. */
function idKinds(route: Route, states: number): Weighted<IdChoice>[] {
  const last = parametersIn(route, 'path').at(-1);
  if (!last) return [];
  return [
    { weight: 6, arbitrary: fc.nat({ max: states - 1 }).map((state): IdChoice => ({ kind: 'own', state })) },
    { weight: 1, arbitrary: fc.constant<IdChoice>({ kind: 'unknown' }) },
    { weight: 2, arbitrary: malformedIds(paramPrefix(last), new RegExp(last.schema?.pattern ?? '^$')).map((value): IdChoice => ({ kind: 'malformed', value })) },
  ];
}

const isKeyed = (route: Route) => !(Array.isArray(route.operation.security) && route.operation.security.length === 0);

/** What a case is drawn from, part by part; `fixed` replaces parts (to draw a case of one kind). */
type Parts = { id: fc.Arbitrary<IdChoice | null>; queryValid: fc.Arbitrary<boolean>; body: fc.Arbitrary<BodyChoice>; badAuth: fc.Arbitrary<string | null> };

export function caseArbitrary(route: Route, components: Components, states: number, fixed: Partial<Parts> = {}): fc.Arbitrary<FuzzCase> {
  const ids = idKinds(route, states);
  const bodies = bodyKinds(route, components);
  const idempotency = parametersIn(route, 'header').find((p) => p.name === 'Idempotency-Key');
  return fc
    .record({
      id: fixed.id ?? (ids.length ? fc.oneof(...ids) : fc.constant(null)),
      queryValid: fixed.queryValid ?? fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(!parametersIn(route, 'query').length) }),
      body: fixed.body ?? (bodies.length ? fc.oneof(...bodies) : fc.constant<BodyChoice>({ kind: 'none' })),
      badAuth: fixed.badAuth ?? (isKeyed(route) ? fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: badAuthorization }) : fc.constant(null)),
      idempotencyKey: !idempotency ? fc.constant(null) : idempotency.required ? fc.constant<'fresh'>('fresh') : fc.constantFrom<'fresh' | null>('fresh', null),
    })
    .chain((c) => queryArbitrary(route, components, c.queryValid).map((query) => ({ ...c, query })));
}

/**
 * One case of each kind the generator makes for the operation, drawn with the seed: a broken
 * Authorization header, each id choice (an own record in each state, an unknown id, a malformed
 * one), each body choice (valid, broken at one place, junk in a field, junk for the whole body, and
 * raw bodies answered 400, 422 and 415) and junk in the query. They run before the random cases, so
 * that every kind reaches every operation on every run however few random cases FUZZ_RUNS asks for.
 */
export function oneCaseOfEachKind(route: Route, components: Components, states: number, seed: number): FuzzCase[] {
  const kinds: Partial<Parts>[] = [];
  if (isKeyed(route)) kinds.push({ badAuth: badAuthorization });
  const [own, ...otherIds] = idKinds(route, states);
  if (own) {
    for (let state = 0; state < states; state++) kinds.push({ id: fc.constant<IdChoice>({ kind: 'own', state }) });
    kinds.push(...otherIds.map(({ arbitrary }) => ({ id: arbitrary })));
  }
  const bodies = bodyKinds(route, components);
  if (bodies.length) {
    // The last kind, raw bodies, is drawn once for each status it must get.
    kinds.push(...bodies.slice(0, -1).map(({ arbitrary }) => ({ body: arbitrary })));
    kinds.push(...rawBodiesByStatus.map((raw) => ({ body: raw.map((r): BodyChoice => ({ kind: 'raw', ...r })) })));
  }
  if (parametersIn(route, 'query').length) kinds.push({ queryValid: fc.constant(false) });
  return kinds.map((fixed) => fc.sample(caseArbitrary(route, components, states, fixed), { seed, numRuns: 1 })[0]!);
}
