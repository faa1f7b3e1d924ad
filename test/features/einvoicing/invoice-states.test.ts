// An invoice's e-invoices in the states after sending (issue 47, points 1, 2 and 4): a partly paid or paid
// invoice's UBL and CII carry what was paid as the prepaid amount (BT-113) and only the rest as payable (BT-115),
// as the API and the PDF say; a cancelled or refunded invoice's own UBL and Factur-X answer 409 naming
// document=credit_note, and the credit note as Factur-X is the credit note's own page with its own XML; a private
// person's invoice gets Factur-X (EN 16931 needs no network address) but no Peppol UBL. The official rules judge
// these documents in states-property.test.ts, which makes them in every state with every buyer (one Saxon run).
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF_LABELS } from '../../../src/pdf/labels.ts';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { ciiHeader, getter, money, POPPLER, pdfFigure, pdfFolder, tag } from './documents.ts';
import { DUTCH_BUSINESS, PRIVATE_PERSON, SELLER_DETAILS } from './fixtures.ts';

let api: TestApi;
let key: string;
let download: ReturnType<typeof getter>;
const pdfs = pdfFolder();

beforeAll(async () => {
  api = await setupApi();
  let companyId: string;
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
  download = getter(api, key);
});
afterAll(() => pdfs.done());

type Invoice = { id: string; number: string; total: string; amount_paid: string; amount_due: string };

async function sentInvoice(customer: Record<string, unknown> = DUTCH_BUSINESS, send = true): Promise<Invoice> {
  const created = await api.call('createCustomer', {
    key,
    body: { email: `k-${randomUUID()}@example.nl`, ...customer },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await api.call('createInvoice', {
    key,
    body: {
      customer_id: created.body.data.id,
      title: 'Onderhoud',
      items: [
        { name: 'Ketel', quantity: 1, unit_price: 1250, tax_rate: 21, discount_percentage: 10 },
        { name: 'Boekje', quantity: 2, unit_price: 12.95, tax_rate: 9 },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  if (send) expect((await api.call('sendInvoice', { key, params: { invoice: res.body.data.id } })).status).toBe(200);
  return res.body.data;
}

async function pay(invoice: string, amount: string, type?: 'refund') {
  const res = await api.call('createInvoicePayment', {
    key,
    params: { invoice },
    body: { amount: Number(amount), type },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Invoice & { status: string };
}

/** The Factur-X file of `path` (200), its page's text and its XML. */
async function facturX(path: string) {
  const res = await download(path);
  expect(res.status, path).toBe(200);
  const { text, xml } = pdfs.read(new Uint8Array(await res.arrayBuffer()));
  expect(xml, path).not.toBeNull();
  return { text, xml: xml ?? '', headers: res.headers };
}

async function problem(path: string) {
  const res = await download(path);
  expect(res.status, path).toBe(409);
  return (await res.json()) as { detail: string; missing?: { field: string; rule: string }[] };
}

describe.skipIf(!existsSync(POPPLER))('e-invoices after sending', () => {
  it('a partly paid and a paid invoice: what was paid is prepaid, only the rest is payable, in UBL and CII', async () => {
    const inv = await sentInvoice();
    const partly = await pay(inv.id, '100.00');
    expect(partly.status).toBe('partial');
    const ubl = await (await download(`/invoices/${inv.id}/ubl`)).text();
    expect(tag(ubl, 'TaxInclusiveAmount')).toBe(inv.total);
    expect(tag(ubl, 'PrepaidAmount')).toBe('100.00');
    expect(tag(ubl, 'PayableAmount')).toBe(partly.amount_due);
    const { text, xml } = await facturX(`/invoices/${inv.id}/pdf?format=facturx`);
    expect(tag(xml, 'GrandTotalAmount')).toBe(inv.total);
    expect(tag(xml, 'TotalPrepaidAmount')).toBe('100.00');
    expect(tag(xml, 'DuePayableAmount')).toBe(partly.amount_due);
    expect(pdfFigure(text, PDF_LABELS.nl.amountDue)).toBe(money(partly.amount_due, 'nl'));

    const paid = await pay(inv.id, partly.amount_due);
    expect([paid.status, paid.amount_due]).toEqual(['paid', '0.00']);
    const paidUbl = await (await download(`/invoices/${inv.id}/ubl`)).text();
    expect([tag(paidUbl, 'PrepaidAmount'), tag(paidUbl, 'PayableAmount')]).toEqual([inv.total, '0.00']);
    const paidCii = (await facturX(`/invoices/${inv.id}/pdf?format=facturx`)).xml;
    expect([tag(paidCii, 'TotalPrepaidAmount'), tag(paidCii, 'DuePayableAmount')]).toEqual([inv.total, '0.00']);
  });

  it('a cancelled and a refunded invoice: their own e-invoice answers 409 naming the credit note, which is one document', async () => {
    const cancelled = await sentInvoice();
    expect((await api.call('cancelInvoice', { key, params: { invoice: cancelled.id } })).status).toBe(200);
    const refunded = await sentInvoice();
    await pay(refunded.id, refunded.total);
    expect((await pay(refunded.id, refunded.total, 'refund')).status).toBe('refunded');

    for (const inv of [cancelled, refunded]) {
      for (const path of [`/invoices/${inv.id}/ubl`, `/invoices/${inv.id}/pdf?format=facturx`])
        expect((await problem(path)).detail, path).toContain('document=credit_note');
      // The plain PDF of the invoice stays, marked; the credit note is a page of its own.
      expect((await download(`/invoices/${inv.id}/pdf`)).status).toBe(200);
      const { text, xml, headers } = await facturX(`/invoices/${inv.id}/pdf?format=facturx&document=credit_note`);
      expect(headers.get('content-disposition')).toBe(`attachment; filename="${inv.number}-C.pdf"`);
      expect(text).toContain(`${PDF_LABELS.nl.title.credit_note} ${inv.number}-C`);
      expect(text).toContain(PDF_LABELS.nl.creditsInFull(inv.number));
      expect(text).not.toContain(`${PDF_LABELS.nl.title.invoice} ${inv.number}`);
      expect(pdfFigure(text, PDF_LABELS.nl.total)).toBe(money(inv.total, 'nl'));
      expect(ciiHeader(xml)).toEqual({ number: `${inv.number}-C`, typeCode: '381' });
      expect(tag(xml, 'GrandTotalAmount')).toBe(inv.total);
      expect(tag(xml, 'DuePayableAmount')).toBe(inv.total);
      // The same document as the UBL credit note, whose embedded PDF is the credit note's page too.
      const ubl = await (await download(`/invoices/${inv.id}/ubl?document=credit_note&embed_pdf=true`)).text();
      expect(tag(ubl, 'ID')).toBe(`${inv.number}-C`);
      expect(ubl).toContain(`filename="${inv.number}-C.pdf"`);
      expect(tag(ubl, 'PayableAmount')).toBe(inv.total);
      // The plain page of the credit note is the Factur-X page without the XML.
      const plain = await download(`/invoices/${inv.id}/pdf?document=credit_note`);
      expect(plain.status).toBe(200);
      expect(pdfs.read(new Uint8Array(await plain.arrayBuffer())).text).toContain(`${inv.number}-C`);
    }

    // Cancelled before it was sent: the customer never had it, so it has neither.
    const draft = await sentInvoice(DUTCH_BUSINESS, false);
    expect((await api.call('cancelInvoice', { key, params: { invoice: draft.id } })).status).toBe(200);
    expect((await problem(`/invoices/${draft.id}/pdf?format=facturx`)).detail).toBe(
      'Deze factuur is geannuleerd voordat ze werd verstuurd: ze heeft geen e-factuur en geen creditnota.',
    );
    await problem(`/invoices/${draft.id}/pdf?format=facturx&document=credit_note`);
    // An open invoice has no credit note page.
    await problem(`/invoices/${(await sentInvoice()).id}/pdf?document=credit_note`);
  });

  it('a private person’s invoice has Factur-X without a buyer network address, and still no Peppol UBL', async () => {
    const inv = await sentInvoice(PRIVATE_PERSON);
    const ubl = await problem(`/invoices/${inv.id}/ubl`);
    expect(ubl.missing?.map((m) => `${m.field} ${m.rule}`)).toEqual(['customer.peppol_id PEPPOL-EN16931-R010']);
    const { text, xml } = await facturX(`/invoices/${inv.id}/pdf?format=facturx`);
    expect(text).toContain('Emma Hendriks');
    const buyer = xml.slice(xml.indexOf('<ram:BuyerTradeParty>'), xml.indexOf('</ram:BuyerTradeParty>'));
    expect(buyer).toContain('<ram:Name>Emma Hendriks</ram:Name>');
    expect(buyer).not.toContain('<ram:URIUniversalCommunication>');
    expect(tag(xml, 'DuePayableAmount')).toBe(inv.amount_due);
  });
});
