// An e-invoice as UBL 2.1 per Peppol BIS Billing 3.0: an Invoice (type 380) or a CreditNote (type 381). Elements
// follow the order of the UBL schema, which the BIS requires; the XML is built with xmlbuilder2, which escapes
// every text and attribute.

import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { EInvoice, ELine, EParty, ETaxGroup } from './model.ts';
import { xmlDocument } from './xml-document.ts';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const cbc = (parent: XMLBuilder, name: string, text: string, attributes?: Record<string, string>) =>
  parent.ele(NS.cbc, `cbc:${name}`, attributes).txt(text).up();
const cac = (parent: XMLBuilder, name: string) => parent.ele(NS.cac, `cac:${name}`);

export function ublXml(doc: EInvoice): string {
  const credit = doc.kind === 'credit_note';
  const money = (parent: XMLBuilder, name: string, amount: string) =>
    cbc(parent, name, amount, { currencyID: doc.currency });
  const root = xmlDocument().ele(credit ? NS.creditNote : NS.invoice, credit ? 'CreditNote' : 'Invoice', {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  });
  cbc(root, 'CustomizationID', CUSTOMIZATION_ID);
  cbc(root, 'ProfileID', PROFILE_ID);
  cbc(root, 'ID', doc.number);
  cbc(root, 'IssueDate', doc.issueDate);
  if (!credit && doc.dueDate) cbc(root, 'DueDate', doc.dueDate);
  cbc(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode', credit ? '381' : '380');
  if (doc.note) cbc(root, 'Note', doc.note);
  cbc(root, 'DocumentCurrencyCode', doc.currency);
  cbc(root, 'BuyerReference', doc.buyerReference);
  if (doc.invoiceReference) {
    const reference = cac(cac(root, 'BillingReference'), 'InvoiceDocumentReference');
    cbc(reference, 'ID', doc.invoiceReference.number);
    cbc(reference, 'IssueDate', doc.invoiceReference.issueDate);
  }
  if (doc.attachment) {
    const reference = cac(root, 'AdditionalDocumentReference');
    cbc(reference, 'ID', doc.number);
    cbc(cac(reference, 'Attachment'), 'EmbeddedDocumentBinaryObject', doc.attachment.base64, {
      mimeCode: doc.attachment.mimeCode,
      filename: doc.attachment.filename,
    });
  }
  party(cac(root, 'AccountingSupplierParty'), doc.seller);
  party(cac(root, 'AccountingCustomerParty'), doc.buyer);
  if (doc.payment) {
    const means = cac(root, 'PaymentMeans');
    // 58: SEPA credit transfer; the payment reference (BT-83) is the invoice number.
    cbc(means, 'PaymentMeansCode', '58');
    cbc(means, 'PaymentID', doc.payment.reference);
    const account = cac(means, 'PayeeFinancialAccount');
    cbc(account, 'ID', doc.payment.iban);
    if (doc.payment.bic) cbc(cac(account, 'FinancialInstitutionBranch'), 'ID', doc.payment.bic);
  }
  for (const group of doc.taxes) {
    if (group.discount === '0.00') continue;
    const allowance = cac(root, 'AllowanceCharge');
    cbc(allowance, 'ChargeIndicator', 'false');
    cbc(allowance, 'AllowanceChargeReason', doc.documentDiscountReason ?? 'Discount');
    money(allowance, 'Amount', group.discount);
    taxCategory(cac(allowance, 'TaxCategory'), group);
  }
  const taxTotal = cac(root, 'TaxTotal');
  money(taxTotal, 'TaxAmount', doc.totals.tax);
  for (const group of doc.taxes) {
    const subtotal = cac(taxTotal, 'TaxSubtotal');
    money(subtotal, 'TaxableAmount', group.taxable);
    money(subtotal, 'TaxAmount', group.tax);
    const category = taxCategory(cac(subtotal, 'TaxCategory'), group, false);
    if (group.exemption) {
      cbc(category, 'TaxExemptionReasonCode', group.exemption.code);
      cbc(category, 'TaxExemptionReason', group.exemption.text);
    }
    cbc(cac(category, 'TaxScheme'), 'ID', 'VAT');
  }
  const totals = cac(root, 'LegalMonetaryTotal');
  money(totals, 'LineExtensionAmount', doc.totals.lines);
  money(totals, 'TaxExclusiveAmount', doc.totals.taxExclusive);
  money(totals, 'TaxInclusiveAmount', doc.totals.taxInclusive);
  if (doc.totals.discount !== '0.00') money(totals, 'AllowanceTotalAmount', doc.totals.discount);
  if (doc.totals.prepaid !== '0.00') money(totals, 'PrepaidAmount', doc.totals.prepaid);
  money(totals, 'PayableAmount', doc.totals.payable);
  for (const line of doc.lines) invoiceLine(root, line, doc.currency, credit);
  return root.end({ prettyPrint: true });
}

function party(parent: XMLBuilder, p: EParty) {
  const node = cac(parent, 'Party');
  if (!p.endpoint) throw new Error("UBL for Peppol needs the party's endpoint (eInvoiceOf with rules peppol)");
  cbc(node, 'EndpointID', p.endpoint.id, { schemeID: p.endpoint.scheme });
  cbc(cac(node, 'PartyName'), 'Name', p.name);
  const address = cac(node, 'PostalAddress');
  if (p.street) cbc(address, 'StreetName', p.street);
  if (p.city) cbc(address, 'CityName', p.city);
  if (p.postalCode) cbc(address, 'PostalZone', p.postalCode);
  cbc(cac(address, 'Country'), 'IdentificationCode', p.country);
  if (p.vatNumber) {
    const scheme = cac(node, 'PartyTaxScheme');
    cbc(scheme, 'CompanyID', p.vatNumber);
    cbc(cac(scheme, 'TaxScheme'), 'ID', 'VAT');
  }
  const legal = cac(node, 'PartyLegalEntity');
  cbc(legal, 'RegistrationName', p.legalName);
  if (p.legalId) cbc(legal, 'CompanyID', p.legalId.id, p.legalId.scheme ? { schemeID: p.legalId.scheme } : undefined);
  if (p.email || p.phone) {
    const contact = cac(node, 'Contact');
    if (p.phone) cbc(contact, 'Telephone', p.phone);
    if (p.email) cbc(contact, 'ElectronicMail', p.email);
  }
}

/** A tax category (TaxCategory or ClassifiedTaxCategory); closed with its scheme unless `close` is false. */
function taxCategory(node: XMLBuilder, group: Pick<ETaxGroup, 'category' | 'rate'>, close = true): XMLBuilder {
  cbc(node, 'ID', group.category);
  cbc(node, 'Percent', group.rate);
  if (close) cbc(cac(node, 'TaxScheme'), 'ID', 'VAT');
  return node;
}

function invoiceLine(root: XMLBuilder, line: ELine, currency: string, credit: boolean) {
  const money = (parent: XMLBuilder, name: string, amount: string) =>
    cbc(parent, name, amount, { currencyID: currency });
  const node = cac(root, credit ? 'CreditNoteLine' : 'InvoiceLine');
  cbc(node, 'ID', line.id);
  cbc(node, credit ? 'CreditedQuantity' : 'InvoicedQuantity', line.quantity, { unitCode: line.unitCode });
  money(node, 'LineExtensionAmount', line.lineTotal);
  if (line.discount !== '0.00') {
    const allowance = cac(node, 'AllowanceCharge');
    cbc(allowance, 'ChargeIndicator', 'false');
    cbc(allowance, 'AllowanceChargeReason', line.discountReason ?? 'Discount');
    money(allowance, 'Amount', line.discount);
  }
  const item = cac(node, 'Item');
  if (line.description) cbc(item, 'Description', line.description);
  cbc(item, 'Name', line.name);
  if (line.sku) cbc(cac(item, 'SellersItemIdentification'), 'ID', line.sku);
  taxCategory(cac(item, 'ClassifiedTaxCategory'), line);
  money(cac(node, 'Price'), 'PriceAmount', line.price);
}
