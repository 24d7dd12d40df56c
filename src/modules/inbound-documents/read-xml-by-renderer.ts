// §21 "Processing" and "Reading": a received e-invoice's XML read and judged by our EN 16931 rules (read-xml.ts), and
// made into the document its page shows (documents/from-received.ts), both run by the renderer worker through the
// RENDERER service binding, as a PDF is read (read-pdf.ts). The rule engine, its rule texts and the readers are
// some 90 KB that no other route of the API needs, and the API's cold start grows with the size of its bundle; the
// renderer answers plain data. This file imports types, a helper and a constant.
import { inTime } from '../../lib/in-time';
import { RENDERER_TIMEOUT_MS } from '../../renderer/contract';
import type { NotShown, ReceivedDocument } from '../documents/from-received';
import type { XmlReading } from './reading';

/**
 * The XML read and judged. One that is no e-invoice, or that the safe reader refuses, answers `ok: false` with the
 * reason; a renderer that cannot be reached throws, so the queue tries the message again.
 */
export function readInboundXml(env: Env, xml: string, options: { embeddedInPdf?: boolean } = {}): Promise<XmlReading> {
  return inTime<XmlReading>(env.RENDERER.readXml(xml, options.embeddedInPdf ?? false), RENDERER_TIMEOUT_MS, () => ({
    ok: false,
    reason: `Reading the XML took longer than ${RENDERER_TIMEOUT_MS / 1000} s.`,
  }));
}

/** The received e-invoice as the document to show, or why it cannot be; a renderer that fails or does not answer throws. */
export function receivedDocument(env: Env, xml: string): Promise<ReceivedDocument | NotShown> {
  return inTime<ReceivedDocument | NotShown>(env.RENDERER.receivedDocument(xml), RENDERER_TIMEOUT_MS, () => {
    throw new Error(`the renderer did not answer within ${RENDERER_TIMEOUT_MS / 1000} s`);
  });
}
