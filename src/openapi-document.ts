// What /openapi.json makes of the document @hono/zod-openapi generates from the routes: inline
// request bodies, shared value shapes and components, records as summaries, tag descriptions, request examples,
// and each operation served under both listings written once (first, so that what is shared below
// counts each operation once). Imported when the document is first
// asked for, so a worker started for any other request does not build it.
import { withSharedListings } from './openapi-listings';
import { withInlineRequestBodies } from './openapi-request-bodies';
import { withSharedInputs } from './openapi-inputs';
import { withRequestExamples } from './openapi-examples';
import { withSharedComponents } from './openapi-shared-components';
import { withSharedRequestSchemas } from './openapi-request-schemas';
import { withRecordsAsSummaries } from './openapi-summaries';
import { withTagDescriptions } from './openapi-tags';
import { withNullableValueSchemas, withSharedValueSchemas, withValueSchemasUsedOnceInPlace } from './openapi-value-schemas';
import { withPathParametersOnPathItems } from './openapi-path-parameters';

export { OPENAPI_INFO } from './openapi-info';

type Document = Parameters<typeof withInlineRequestBodies>[0];

export const finishedDocument = (generated: Document) =>
  withPathParametersOnPathItems(withValueSchemasUsedOnceInPlace(withRequestExamples(withTagDescriptions(withRecordsAsSummaries(withSharedInputs(withSharedRequestSchemas(withNullableValueSchemas(withSharedComponents(withSharedValueSchemas(withSharedListings(withInlineRequestBodies(generated))))))))))));
