// An e-invoice as a UN/CEFACT Cross Industry Invoice (D16B) per EN 16931, the XML a Factur-X / ZUGFeRD PDF embeds as
// `factur-x.xml`: written from the same model as the UBL (model.ts) with the same library (xmlbuilder2, which
// escapes every text and attribute). Elements follow the order of the CII schema.

import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { EInvoice, ELine, EParty, ETaxGroup } from './model.ts';
import { xmlDocument } from './xml-document.ts';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};
/** The EN 16931 profile of Factur-X 1.0 / ZUGFeRD 2 (the guideline id BT-24). */
export const CII_GUIDELINE = 'urn:cen.eu:en16931:2017';

const ram = (parent: XMLBuilder, name: string, text?: string, attributes?: Record<string, string>) => {
  const node = parent.ele(NS.ram, `ram:${name}`, attributes);
  if (text !== undefined) node.txt(text);
  return node;
};
/** A date as CII writes it: format 102, YYYYMMDD. */
const date = (parent: XMLBuilder, name: string, day: string, type: 'udt' | 'qdt' = 'udt') =>
  ram(parent, name).ele(NS[type], `${type}:DateTimeString`, { format: '102' }).txt(day.replaceAll('-', ''));
const indicator = (parent: XMLBuilder, charge: boolean) =>
  ram(parent, 'ChargeIndicator').ele(NS.udt, 'udt:Indicator').txt(String(charge));

export function ciiXml(doc: EInvoice): string {
  const root = xmlDocument().ele(NS.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:ram': NS.ram,
    'xmlns:qdt': NS.qdt,
    'xmlns:udt': NS.udt,
  });
  ram(root.ele(NS.rsm, 'rsm:ExchangedDocumentContext'), 'GuidelineSpecifiedDocumentContextParameter')
    .ele(NS.ram, 'ram:ID')
    .txt(CII_GUIDELINE);

  const header = root.ele(NS.rsm, 'rsm:ExchangedDocument');
  ram(header, 'ID', doc.number);
  // 380 commercial invoice, 381 credit note: the same figures, credited.
  ram(header, 'TypeCode', doc.kind === 'credit_note' ? '381' : '380');
  date(header, 'IssueDateTime', doc.issueDate);
  if (doc.note) ram(ram(header, 'IncludedNote'), 'Content', doc.note);

  const transaction = root.ele(NS.rsm, 'rsm:SupplyChainTradeTransaction');
  for (const line of doc.lines) lineItem(transaction, line);

  const agreement = ram(transaction, 'ApplicableHeaderTradeAgreement');
  ram(agreement, 'BuyerReference', doc.buyerReference);
  party(ram(agreement, 'SellerTradeParty'), doc.seller);
  party(ram(agreement, 'BuyerTradeParty'), doc.buyer);
  ram(transaction, 'ApplicableHeaderTradeDelivery');

  const settlement = ram(transaction, 'ApplicableHeaderTradeSettlement');
  if (doc.payment) ram(settlement, 'PaymentReference', doc.payment.reference);
  ram(settlement, 'InvoiceCurrencyCode', doc.currency);
  if (doc.payment) {
    const means = ram(settlement, 'SpecifiedTradeSettlementPaymentMeans');
    // 58: SEPA credit transfer to the company's IBAN.
    ram(means, 'TypeCode', '58');
    ram(ram(means, 'PayeePartyCreditorFinancialAccount'), 'IBANID', doc.payment.iban);
    if (doc.payment.bic) ram(ram(means, 'PayeeSpecifiedCreditorFinancialInstitution'), 'BICID', doc.payment.bic);
  }
  for (const group of doc.taxes) {
    const tax = ram(settlement, 'ApplicableTradeTax');
    ram(tax, 'CalculatedAmount', group.tax);
    ram(tax, 'TypeCode', 'VAT');
    if (group.exemption) ram(tax, 'ExemptionReason', group.exemption.text);
    ram(tax, 'BasisAmount', group.taxable);
    ram(tax, 'CategoryCode', group.category);
    if (group.exemption) ram(tax, 'ExemptionReasonCode', group.exemption.code);
    ram(tax, 'RateApplicablePercent', group.rate);
  }
  for (const group of doc.taxes) {
    if (group.discount === '0.00') continue;
    const allowance = ram(settlement, 'SpecifiedTradeAllowanceCharge');
    indicator(allowance, false);
    ram(allowance, 'ActualAmount', group.discount);
    ram(allowance, 'Reason', doc.documentDiscountReason ?? 'Discount');
    categoryTax(ram(allowance, 'CategoryTradeTax'), group);
  }
  if (doc.dueDate) date(ram(settlement, 'SpecifiedTradePaymentTerms'), 'DueDateDateTime', doc.dueDate);
  const sums = ram(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  ram(sums, 'LineTotalAmount', doc.totals.lines);
  if (doc.totals.discount !== '0.00') ram(sums, 'AllowanceTotalAmount', doc.totals.discount);
  ram(sums, 'TaxBasisTotalAmount', doc.totals.taxExclusive);
  ram(sums, 'TaxTotalAmount', doc.totals.tax, { currencyID: doc.currency });
  ram(sums, 'GrandTotalAmount', doc.totals.taxInclusive);
  if (doc.totals.prepaid !== '0.00') ram(sums, 'TotalPrepaidAmount', doc.totals.prepaid);
  ram(sums, 'DuePayableAmount', doc.totals.payable);
  if (doc.invoiceReference) {
    const reference = ram(settlement, 'InvoiceReferencedDocument');
    ram(reference, 'IssuerAssignedID', doc.invoiceReference.number);
    date(reference, 'FormattedIssueDateTime', doc.invoiceReference.issueDate, 'qdt');
  }
  return root.end({ prettyPrint: true });
}

/** A category with its rate (CategoryTradeTax or a line's ApplicableTradeTax). */
function categoryTax(node: XMLBuilder, group: Pick<ETaxGroup, 'category' | 'rate'>) {
  ram(node, 'TypeCode', 'VAT');
  ram(node, 'CategoryCode', group.category);
  ram(node, 'RateApplicablePercent', group.rate);
}

function party(node: XMLBuilder, p: EParty) {
  ram(node, 'Name', p.legalName);
  if (p.legalId || p.name !== p.legalName) {
    const legal = ram(node, 'SpecifiedLegalOrganization');
    if (p.legalId) ram(legal, 'ID', p.legalId.id, p.legalId.scheme ? { schemeID: p.legalId.scheme } : undefined);
    if (p.name !== p.legalName) ram(legal, 'TradingBusinessName', p.name);
  }
  if (p.phone || p.email) {
    const contact = ram(node, 'DefinedTradeContact');
    if (p.phone) ram(ram(contact, 'TelephoneUniversalCommunication'), 'CompleteNumber', p.phone);
    if (p.email) ram(ram(contact, 'EmailURIUniversalCommunication'), 'URIID', p.email);
  }
  const address = ram(node, 'PostalTradeAddress');
  if (p.postalCode) ram(address, 'PostcodeCode', p.postalCode);
  if (p.street) ram(address, 'LineOne', p.street);
  if (p.city) ram(address, 'CityName', p.city);
  ram(address, 'CountryID', p.country);
  if (p.endpoint) ram(ram(node, 'URIUniversalCommunication'), 'URIID', p.endpoint.id, { schemeID: p.endpoint.scheme });
  // VA: a VAT identification number.
  if (p.vatNumber) ram(ram(node, 'SpecifiedTaxRegistration'), 'ID', p.vatNumber, { schemeID: 'VA' });
}

function lineItem(transaction: XMLBuilder, line: ELine) {
  const item = ram(transaction, 'IncludedSupplyChainTradeLineItem');
  ram(ram(item, 'AssociatedDocumentLineDocument'), 'LineID', line.id);
  const product = ram(item, 'SpecifiedTradeProduct');
  if (line.sku) ram(product, 'SellerAssignedID', line.sku);
  ram(product, 'Name', line.name);
  if (line.description) ram(product, 'Description', line.description);
  ram(ram(ram(item, 'SpecifiedLineTradeAgreement'), 'NetPriceProductTradePrice'), 'ChargeAmount', line.price);
  ram(ram(item, 'SpecifiedLineTradeDelivery'), 'BilledQuantity', line.quantity, { unitCode: line.unitCode });
  const settlement = ram(item, 'SpecifiedLineTradeSettlement');
  categoryTax(ram(settlement, 'ApplicableTradeTax'), line);
  if (line.discount !== '0.00') {
    const allowance = ram(settlement, 'SpecifiedTradeAllowanceCharge');
    indicator(allowance, false);
    ram(allowance, 'ActualAmount', line.discount);
    ram(allowance, 'Reason', line.discountReason ?? 'Discount');
  }
  ram(ram(settlement, 'SpecifiedTradeSettlementLineMonetarySummation'), 'LineTotalAmount', line.lineTotal);
}
