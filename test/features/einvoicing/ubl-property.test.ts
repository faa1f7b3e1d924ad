// Property: every invoice the totals engine accepts becomes a UBL Invoice (or CreditNote) with no fatal assertion
// of the EN 16931 and Peppol BIS 3.0 rules, and its VAT breakdown is the API's tax_breakdown row for row. The
// random invoices are random-invoices.ts's; the EN 16931 arithmetic rules (BR-CO-10…17, BR-S-08 …) then check the
// totals engine too. One Saxon run per rule set validates the whole sample.
import { beforeAll, describe, expect, it } from 'vitest';
import { ublXml } from '../../../src/einvoicing/ubl.ts';
import { fatalLines, type Report, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import { apiBreakdown, randomEInvoices, SEED } from './random-invoices.ts';

const unavailable = rulesUnavailable();
if (unavailable) console.warn(unavailable);

const RUNS = 60;

/** The VAT breakdown of a UBL document: category, rate, taxable amount and tax of each TaxSubtotal. */
function ublBreakdown(xml: string): string[] {
  const rows = xml.match(/<cac:TaxSubtotal>[\s\S]*?<\/cac:TaxSubtotal>/g) ?? [];
  return rows.map((row) => {
    const value = (name: string) => new RegExp(`<cbc:${name}[^>]*>([^<]*)<`).exec(row)?.[1];
    return `${value('ID')} ${value('Percent')} ${value('TaxableAmount')} ${value('TaxAmount')}`;
  });
}

describe.skipIf(unavailable !== null)('UBL of random invoices (property, official rules)', () => {
  const documents = new Map<string, string>();
  let reports: Map<string, Report[]>;
  let refused = 0;

  beforeAll(async () => {
    const sample = randomEInvoices(RUNS);
    refused = sample.refused;
    for (const { name, source, document } of sample.documents) {
      const xml = ublXml(document);
      expect(ublBreakdown(xml), `seed ${SEED} ${name}`).toEqual(apiBreakdown(source));
      documents.set(name, xml);
    }
    reports = await validate(documents, UBL_RULES);
  }, 600_000);

  it(`passes the EN 16931 and Peppol rules with no fatal assertion (seed ${SEED})`, () => {
    expect(documents.size).toBe(RUNS);
    expect(refused, 'most random invoices should be accepted by the totals engine').toBeLessThan(RUNS * 3);
    const failing = [...documents.keys()]
      .map((name) => ({ name, lines: fatalLines(reports.get(name) ?? []) }))
      .filter((f) => f.lines.length > 0);
    expect(failing.slice(0, 3), `seed ${SEED}: ${failing.length} documents fail`).toEqual([]);
    for (const name of documents.keys()) expect(reports.get(name)?.length, name).toBe(2);
  });
});
