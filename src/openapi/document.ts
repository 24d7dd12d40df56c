// What /openapi.json makes of the document @hono/zod-openapi generates from the routes: the steps
// below, in order, each answering the document it was given, changed. Imported when the document is
// first asked for, so a worker started for any other request does not build it.
import { withSharedListings } from './listings';
import { withInlineRequestBodies } from './request-bodies';
import { withSharedInputs } from './inputs';
import { withRequestExamples } from './examples';
import { withSharedComponents } from './shared-components';
import { withSharedRequestSchemas } from './request-schemas';
import { withRecordsAsSummaries } from './summaries';
import { withTagDescriptions } from './tags';
import { withNullableValueSchemas, withSharedValueSchemas, withValueSchemasUsedOnceInPlace } from './value-schemas';
import { withPathParametersOnPathItems } from './path-parameters';
import { withoutRestatedObjectTypes } from './object-types';

export { OPENAPI_INFO } from './info';

type Document = Parameters<typeof withInlineRequestBodies>[0];

const STEPS: ((document: Document) => Document)[] = [
  // Request bodies written out in place, so that generated clients keep defaulted fields optional.
  withInlineRequestBodies,
  // Each operation served under both listings written once, first, so that what is shared below counts it once.
  withSharedListings,
  // Ids, timestamps, dates, email addresses and texts as value components.
  withSharedValueSchemas,
  // Error responses, headers, parameters and enumerations written once; keyed by default.
  withSharedComponents,
  // A value component or null, as one more component.
  withNullableValueSchemas,
  // Property schemas several request bodies take alike (an address, line items, a discount).
  withSharedRequestSchemas,
  // What a record's create and update take alike (`ClientInput`), and the documents' inputs (`DocumentInput`).
  withSharedInputs,
  // A record as its summary and what it adds.
  withRecordsAsSummaries,
  withTagDescriptions,
  withRequestExamples,
  // Once every sharing above is done and the counts are final: a value component used once goes back in place.
  withValueSchemasUsedOnceInPlace,
  // A path's ids, declared on its path item.
  withPathParametersOnPathItems,
  // A part of an allOf beside an object component adds properties to it, without saying `object` again.
  withoutRestatedObjectTypes,
];

export const finishedDocument = (generated: Document) => STEPS.reduce((document, step) => step(document), generated);
