// Our own EN 16931 rule engine (src/modules/documents/einvoice/rules/) held to the official validator: every
// fixture valid in both syntaxes, every mutated file of the corpus failing exactly the rule ids the CEN artefacts
// failed on it (recorded in official-verdicts.json; validate.mjs re-runs the artefacts where they are installed),
// and the XML reader refusing what a received document must never make it do.
import { describe, expect, it } from 'vitest';
import { readXml, XmlReadError } from '../../src/lib/xml-reader';
import { readEInvoice, validateEInvoice } from '../../src/modules/documents/einvoice/rules';
import { fixtureFiles, MUTATIONS, mutatedFiles } from './corpus';
import recorded from './official-verdicts.json';

const officialFatal = (recorded as { files: Record<string, { fatal: string[] }> }).files;
const failedRules = (xml: string) => [...new Set(validateEInvoice(xml).failures.map((f) => f.rule))].sort();

describe('our EN 16931 rules on the corpus', () => {
  it.each(fixtureFiles().map((f) => [f.file, f.xml]))('%s is valid', (_file, xml) => {
    const verdict = validateEInvoice(xml);
    expect(verdict.failures).toEqual([]);
    expect(verdict.valid).toBe(true);
  });

  it('has a recorded official verdict for every mutated file, and no other', () => {
    expect(Object.keys(officialFatal).sort()).toEqual(mutatedFiles().map((f) => f.file).sort());
    expect(mutatedFiles().length).toBeGreaterThanOrEqual(2 * Object.keys(MUTATIONS).length - 2);
  });

  it.each(mutatedFiles().map((f) => [f.file, f.xml]))('%s fails the same rules as the official validator', (file, xml) => {
    const [, name, syntax] = /^mutated-(.+)\.(cii|ubl)\.xml$/.exec(file)!;
    // A mistake the artefacts accept says why; any other must fail at least one rule.
    const accepted = MUTATIONS[name!]!.accepted?.[syntax as 'cii' | 'ubl'];
    expect(officialFatal[file]!.fatal.length === 0, accepted ?? 'a mutation the official validator accepts needs `accepted`').toBe(Boolean(accepted));
    expect(failedRules(xml)).toEqual(officialFatal[file]!.fatal);
  });

  it('names the rule in the artefacts\' words and where it failed', () => {
    const xml = mutatedFiles().find((f) => f.file === 'mutated-reverse-charge-line-taxed.ubl.xml')!.xml;
    const verdict = validateEInvoice(xml);
    expect(verdict).toMatchObject({ valid: false, syntax: 'ubl', warnings: [] });
    expect(verdict.failures).toEqual([{
      rule: 'BR-AE-05',
      message: 'In an Invoice line (BG-25) where the Invoiced item VAT category code (BT-151) is "Reverse charge" the Invoiced item VAT rate (BT-152) shall be 0 (zero).',
      path: 'BG-25[1]/BT-152',
    }]);
  });

  it('reads both syntaxes into the same semantic model', () => {
    const [cii, ubl] = ['cii', 'ubl'].map((syntax) => {
      const read = readEInvoice(fixtureFiles().find((f) => f.file === `two-rates.${syntax}.xml`)!.xml);
      if (!('invoice' in read)) throw new Error(read.error);
      return read.invoice;
    });
    const essentials = (i: typeof cii) => ({ number: i!.number, seller: i!.seller.vatId, buyer: i!.buyer.name, due: i!.totals?.duePayable, lines: i!.lines.map((l) => [l.netAmount, l.vat]), groups: i!.vatBreakdown.length });
    expect(essentials(ubl)).toEqual(essentials(cii));
  });
});

describe('the XML reader', () => {
  const refuses = (xml: string, reason: RegExp) => expect(() => readXml(xml)).toThrow(reason);

  it('refuses a DOCTYPE outright, so no DTD, entity definition or external reference is ever read', () => {
    refuses('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>', /DOCTYPE/);
    refuses('<!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>', /DOCTYPE/);
    const verdict = validateEInvoice('<!DOCTYPE Invoice [<!ENTITY lol "lol">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>');
    expect(verdict).toMatchObject({ valid: false, syntax: null, failures: [{ rule: 'XML' }] });
  });

  it('resolves only XML\'s five entities and character references', () => {
    expect(readXml('<a>&lt;&amp;&#233;&#x20AC;</a>').text).toBe('<&é€');
    refuses('<a>&nbsp;</a>', /predefined/);
    refuses('<a>&#0;</a>', /not a valid XML character/);
    // Names an object inherits are no entities either (they once decoded to a function's source text).
    refuses('<a>&constructor;</a>', /predefined/);
    refuses('<a b="&toString;"/>', /predefined/);
  });

  it('stops at its ceilings of depth, elements and size', () => {
    refuses(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`, /nested deeper than 64/);
    expect(() => readXml(`<a>${'<b/>'.repeat(50)}</a>`, { maxChars: 1000, maxDepth: 64, maxElements: 10 })).toThrow(/more than 10 elements/);
    expect(() => readXml('<a>', { maxChars: 1000, maxDepth: 64, maxElements: 10 })).toThrow(XmlReadError);
    expect(() => readXml(`<a>${'x'.repeat(2000)}</a>`, { maxChars: 1000, maxDepth: 64, maxElements: 100 })).toThrow(/longer than 1000/);
  });

  it('refuses malformed documents instead of guessing', () => {
    refuses('<a><b></a>', /does not close/);
    refuses('<a>', /never closed/);
    refuses('<p:a/>', /not declared/);
    refuses('<a/><b/>', /second root/);
  });
});
