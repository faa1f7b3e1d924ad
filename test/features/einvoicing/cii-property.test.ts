// Property: the same random invoices as the UBL's (random-invoices.ts) become Cross Industry Invoices (the XML a
// Factur-X PDF embeds) with no fatal assertion of the EN 16931 CII rules, their VAT breakdown being the API's
// tax_breakdown row for row. One Saxon run validates the whole sample.
import { beforeAll, describe, expect, it } from 'vitest';
import { ciiXml } from '../../../src/einvoicing/cii.ts';
import { CII_RULES, fatalLines, type Report, rulesUnavailable, validate } from '../../harness/einvoicing-rules.ts';
import { apiBreakdown, randomEInvoices, SEED } from './random-invoices.ts';

const unavailable = rulesUnavailable();
if (unavailable) console.warn(unavailable);

const RUNS = 40;

/** The VAT breakdown of a CII document: category, rate, basis and tax of each header ApplicableTradeTax. */
function ciiBreakdown(xml: string): string[] {
  const settlement = xml.slice(xml.indexOf('<ram:ApplicableHeaderTradeSettlement>'));
  const rows = settlement.match(/<ram:ApplicableTradeTax>[\s\S]*?<\/ram:ApplicableTradeTax>/g) ?? [];
  return rows.map((row) => {
    const value = (name: string) => new RegExp(`<ram:${name}[^>]*>([^<]*)<`).exec(row)?.[1];
    return `${value('CategoryCode')} ${value('RateApplicablePercent')} ${value('BasisAmount')} ${value('CalculatedAmount')}`;
  });
}

describe.skipIf(unavailable !== null)('CII of random invoices (property, official rules)', () => {
  const documents = new Map<string, string>();
  let reports: Map<string, Report[]>;

  beforeAll(async () => {
    for (const { name, source, document } of randomEInvoices(RUNS).documents) {
      const xml = ciiXml(document);
      expect(ciiBreakdown(xml), `seed ${SEED} ${name}`).toEqual(apiBreakdown(source));
      documents.set(name, xml);
    }
    reports = await validate(documents, CII_RULES);
  }, 600_000);

  it(`passes the EN 16931 CII rules with no fatal assertion (seed ${SEED})`, () => {
    expect(documents.size).toBe(RUNS);
    const failing = [...documents.keys()]
      .map((name) => ({ name, lines: fatalLines(reports.get(name) ?? []) }))
      .filter((f) => f.lines.length > 0);
    expect(failing.slice(0, 3), `seed ${SEED}: ${failing.length} documents fail`).toEqual([]);
    for (const name of documents.keys()) expect(reports.get(name)?.length, name).toBe(1);
  });
});
