// What a received file is, read from its first bytes alone (§21): the edges of each signature, XML however it
// opens (a byte order mark, UTF-16, comments, a DOCTYPE the reader will refuse), and HTML however it hides.
import { describe, expect, it } from 'vitest';
import { sniffDocumentType } from '../../src/modules/inbound-documents/sniff';
import { bytesOf, TINY_PNG } from '../helpers/inbound';

const typeOf = (body: Uint8Array | string) => sniffDocumentType(bytesOf(body))?.contentType ?? null;
const utf16le = (text: string) => Uint8Array.from([0xff, 0xfe, ...[...text].flatMap((ch) => [ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8])]);

describe('sniffDocumentType', () => {
  it.each<[string, Uint8Array | string, string | null]>([
    ['a PDF', '%PDF-1.7\n%âãÏÓ', 'application/pdf'],
    ['a PNG', TINY_PNG, 'image/png'],
    ['a PNG signature cut short', TINY_PNG.subarray(0, 7), null],
    ['a JPEG', Uint8Array.from([0xff, 0xd8, 0xff, 0xdb]), 'image/jpeg'],
    ['a WebP', 'RIFF\u0024\u0000\u0000\u0000WEBPVP8 ', 'image/webp'],
    ['a RIFF that is a WAV', 'RIFF\u0024\u0000\u0000\u0000WAVEfmt ', null],
    ['XML with its declaration', '<?xml version="1.0" encoding="UTF-8"?>\n<rsm:CrossIndustryInvoice/>', 'application/xml'],
    ['XML with a byte order mark and white space first', '\uFEFF \n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>', 'application/xml'],
    ['XML in UTF-16 with its byte order mark', utf16le('<?xml version="1.0" encoding="UTF-16"?><Invoice/>'), 'application/xml'],
    ['XML opening with a comment', '<!-- exported by our ERP --><ubl:Invoice xmlns:ubl="urn:x"/>', 'application/xml'],
    ['XML declaring a DTD (refused later, with its reason)', '<?xml version="1.0"?><!DOCTYPE Invoice SYSTEM "x.dtd"><Invoice/>', 'application/xml'],
    ['declared XML whose root any name', '<?xml version="1.0"?><a><b/></a>', 'application/xml'],
    ['a prolog longer than the lookahead, declared', `<?xml version="1.0"?><!--${'x'.repeat(10_000)}--><Invoice/>`, 'application/xml'],
    ['an HTML page', '<!DOCTYPE html><html><body>Invoice</body></html>', null],
    ['an HTML page in lower-case doctype', '<!doctype HTML>\n<title>x</title>', null],
    ['an HTML fragment', '<div onclick="x()">Invoice</div>', null],
    ['a script', '<script>alert(1)</script>', null],
    ['XHTML', '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>', null],
    ['SVG, even declared', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', null],
    ['text that only mentions markup', 'Total: 12 < 13 <Invoice/>', null],
    ['a bare "<"', '< not a tag', null],
    ['an unterminated comment, undeclared', '<!-- no end', null],
    ['JSON', '{"total": 100}', null],
    ['nothing', '', null],
    ['white space only', '   \n\t ', null],
  ])('%s', (_, body, expected) => {
    expect(typeOf(body)).toBe(expected);
  });
});
