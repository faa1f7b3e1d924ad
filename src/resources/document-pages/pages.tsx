// The online quote and invoice at a document's `public_url` ({PUBLIC_URL}/quote/{token}, /invoice/{token}): no
// key, the signed link is the permission (src/files/document-links.ts), served outside the API's contract like the
// review page and on the same machinery (src/http/public-page.tsx). The page shows the document as its PDF does,
// with the PDF's own labels and the one formatter of amounts and dates, in `?lang`, else the browser's language,
// else the document's. The first opening marks the document viewed. A quote that is `sent` or `viewed` (and not
// past its last valid day) can be accepted or declined with a form protected like the review form; the change goes
// through the same domain functions as *Accept a quote* / *Reject a quote*. An invoice with an amount due offers
// "pay now" (`/invoice/{token}/pay`, the invoice's pay_url) when its company has a payment provider: 303 to the
// provider's checkout (src/resources/invoices/provider-payments.ts), 503 when the provider fails. Answers: 200
// page, 303 after an answer, 403 a form without its token and cookie or from another site, 404 an unknown, altered
// or unsent document's link, 409 a quote answered already, 410 an expired quote or a cancelled invoice, 413/415 a
// body that is not a small form, 422 a reason the API's *Reject a quote* would refuse too (U+0000, an unpaired
// surrogate, over 1 000 characters).

import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Child } from 'hono/jsx';
import { QuoteRejectSchema } from '../../../generated/routes.ts';
import { clientAddress } from '../../auth/ip.ts';
import { type Tx, tenantOf, withTenant } from '../../db/tenant.ts';
import type { Deps } from '../../deps.ts';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  formatPercent,
  labelled,
} from '../../domain/locale-format.ts';
import type { DocumentKind, LinkedDocument } from '../../files/document-links.ts';
import { ConcurrencyLimited } from '../../http/concurrency.ts';
import { FORM_SECONDS, FormTokens, NONCE } from '../../http/form-token.ts';
import { LANGUAGES, languageFromHeader } from '../../http/language.ts';
import { crossSite, PageShell, pageWindow, protectPage, refusalHeaders } from '../../http/public-page.tsx';
import type { RateDecision } from '../../http/rate-limit.ts';
import { socketAddress } from '../../http/request-address.ts';
import { unstorable } from '../../http/storable-text.ts';
import type { Language } from '../../languages.ts';
import { hasPaymentProvider } from '../../payments/accounts.ts';
import type { DocumentPdfView } from '../../pdf/document-view.ts';
import { PDF_LABELS } from '../../pdf/labels.ts';
import { markInvoiceViewed } from '../invoices/online.ts';
import { invoicePdf } from '../invoices/pdf.ts';
import { startInvoicePayment } from '../invoices/provider-payments.ts';
import * as invoiceQueries from '../invoices/queries.ts';
import { payableNow } from '../invoices/serialize.ts';
import { visibleAttachments } from '../quote-attachments/queries.ts';
import { acceptQuote, DECIDABLE_ONLINE, markQuoteViewed, rejectQuote } from '../quotes/decisions.ts';
import { type CompanyDefaults, companyDefaults } from '../quotes/documents.ts';
import { DOCUMENT_EMAIL_WORDS } from '../quotes/email.ts';
import { type PdfDocument, pdfDownload, pdfViewOf, quotePdf } from '../quotes/pdf.ts';
import * as quoteQueries from '../quotes/queries.ts';
import type { QuoteRow } from '../quotes/serialize.ts';
import { type DocumentPageText, say } from './texts.ts';

const MAX_FORM_BYTES = 8 * 1024;
const MAX_REASON = 1000;
/**
 * A declining customer's reason follows the API's rules for the same field (body-rules' storable text, then
 * QuoteReject's schema): what the API refuses with 422, the page refuses too, instead of failing on insert.
 */
const acceptableReason = (reason: string) =>
  unstorable(reason) === null && QuoteRejectSchema.safeParse({ reason }).success;
const FORM_COOKIE = 'quote_form';

const STYLE = `
main{max-width:52rem}
.meta{color:#3f3f46;margin:.1rem 0}
table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{padding:.4rem .5rem;text-align:left;vertical-align:top;border-bottom:1px solid #e4e4e7}
th{font-size:.9rem;color:#3f3f46}
td.n,th.n{text-align:right;white-space:nowrap}
.line-text{color:#3f3f46;font-size:.95rem;white-space:pre-line}
.totals{max-width:26rem;margin-left:auto}
.totals .grand td{font-weight:700;border-top:2px solid #1a1a1a}
.box{border:1px solid #d4d4d8;border-radius:.4rem;padding:1rem;margin:1.25rem 0;background:#fafafa}
.box h2{font-size:1.15rem;margin:0 0 .5rem}
.status{border-left:4px solid #1d4ed8;padding:.5rem .75rem;background:#eef2ff;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.5rem 0}
dt{font-weight:600}dd{margin:0;font-variant-numeric:tabular-nums}
label{display:block;font-weight:600;margin:.75rem 0 .35rem}
textarea{width:100%;min-height:5rem;font:inherit;padding:.5rem;border:1px solid #52525b;border-radius:.3rem}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:.75rem}
button.secondary{background:#fff;color:#1a1a1a;border:1px solid #52525b}
button.secondary:hover{background:#f4f4f5}
nav.languages{margin-top:2rem;font-size:.9rem}
nav.languages a{margin-right:.75rem}
.prose{white-space:pre-line}
`;

/** The page's language: `?lang`, else the browser's (Accept-Language), else the document's. */
function languageOf(c: Context, documentLanguage: Language): Language {
  const asked = c.req.query('lang');
  const given = LANGUAGES.find((l) => l === asked);
  return given ?? languageFromHeader(c.req.header('accept-language')) ?? documentLanguage;
}

/** A page of text only (an unknown link, a refusal), with its status. */
function message(
  c: Context,
  language: Language,
  title: string,
  text: string,
  status: 200 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503,
  link?: { href: string; text: string },
) {
  protectPage(c);
  return c.html(
    <PageShell language={language} title={title}>
      <p>{text}</p>
      {link ? (
        <p>
          <a class="button" href={link.href}>
            {link.text}
          </a>
        </p>
      ) : null}
    </PageShell>,
    status,
  );
}

const sayText = (c: Context, l: Language, title: DocumentPageText, text: DocumentPageText, status: 404 | 429) =>
  message(c, l, say(title, l), say(text, l), status);

/** What the page shows besides the PDF's view. */
export type Extras = {
  pdfUrl: string;
  attachments: { name: string; url: string }[];
  intro: string | null;
  description: string | null;
  status: Child;
  action: Child;
};

export function DocumentPage(props: { view: DocumentPdfView; language: Language; extras: Extras }) {
  const { view, language: l, extras } = props;
  const labels = PDF_LABELS[l];
  const money = (amount: string) => formatMoney(amount, view.currency, l);
  const words = DOCUMENT_EMAIL_WORDS[l];
  const kind = view.kind === 'quote' ? 'quote' : 'invoice';
  const title = words[kind].subject.replace('{number}', view.number).replace('{company}', view.company.name);
  const t = view.totals;
  const showAmounts = !view.hideLineAmounts;
  return (
    <PageShell language={l} title={title} style={STYLE}>
      {view.title ? <p class="meta">{view.title}</p> : null}
      <p class="meta">
        {labelled(labels.date, formatDate(view.issueDate, l), l)}
        {view.validUntil ? ` · ${labelled(labels.validUntil, formatDate(view.validUntil, l), l)}` : ''}
        {view.dueDate ? ` · ${labelled(labels.dueDate, formatDate(view.dueDate, l), l)}` : ''}
      </p>
      {view.mark ? <p class="status">{labels.mark[view.mark]}</p> : null}
      {extras.status}
      {extras.intro ? <p class="prose">{extras.intro}</p> : null}
      {extras.description ? <p class="prose">{extras.description}</p> : null}
      <table>
        <thead>
          <tr>
            <th>{labels.description}</th>
            <th class="n">{labels.quantity}</th>
            {showAmounts ? (
              <>
                <th class="n">{labels.unitPrice}</th>
                <th class="n">{labels.tax}</th>
                <th class="n">{labels.amount}</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {view.lines.map((line) => (
            <tr>
              <td colspan={line.type === 'text' ? (showAmounts ? 5 : 2) : 1}>
                {line.name}
                {line.description ? <div class="line-text">{line.description}</div> : null}
              </td>
              {line.type === 'text' ? null : (
                <>
                  <td class="n">
                    {formatNumber(line.quantity, l)}
                    {line.unit ? ` ${line.unit}` : ''}
                  </td>
                  {showAmounts ? (
                    <>
                      <td class="n">{money(line.unitPrice)}</td>
                      <td class="n">
                        {line.isTaxable === false ? labels.exemptShort : formatPercent(line.taxRate, l)}
                      </td>
                      <td class="n">{money(line.total)}</td>
                    </>
                  ) : null}
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <table class="totals">
        <tbody>
          <tr>
            <td>{labels.subtotal}</td>
            <td class="n">{money(t.subtotal)}</td>
          </tr>
          {t.discount ? (
            <tr>
              <td>{labels.documentDiscount}</td>
              <td class="n">{money(`-${t.discount}`)}</td>
            </tr>
          ) : null}
          {t.taxes.map((tax) => (
            <tr>
              <td>
                {tax.exempt
                  ? labels.taxExempt(money(tax.base))
                  : labels.taxAt(formatNumber(tax.rate, l), money(tax.base))}
              </td>
              <td class="n">{money(tax.amount)}</td>
            </tr>
          ))}
          <tr class="grand">
            <td>{labels.total}</td>
            <td class="n">{money(t.total)}</td>
          </tr>
          {t.amountPaid && t.amountPaid !== '0.00' ? (
            <tr>
              <td>{labels.amountPaid}</td>
              <td class="n">{money(t.amountPaid)}</td>
            </tr>
          ) : null}
          {t.amountDue && t.amountPaid && t.amountPaid !== '0.00' ? (
            <tr>
              <td>{labels.amountDue}</td>
              <td class="n">{money(t.amountDue)}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {extras.action}
      {view.kind === 'quote' && view.validUntil ? <p>{labels.validity(formatDate(view.validUntil, l))}</p> : null}
      {view.paymentTerms ? (
        <>
          <h2>{labels.paymentTerms}</h2>
          <p class="prose">{view.paymentTerms}</p>
        </>
      ) : null}
      {view.notes ? <p class="prose">{view.notes}</p> : null}
      <p>
        <a href={extras.pdfUrl}>{say('downloadPdf', l)}</a>
      </p>
      {extras.attachments.length > 0 ? (
        <>
          <h2>{say('attachments', l)}</h2>
          <ul>
            {extras.attachments.map((file) => (
              <li>
                <a href={file.url}>{file.name}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p class="meta">{say('from', l, { company: view.company.legalName ?? view.company.name })}</p>
      <nav class="languages" aria-label={say('language', l)}>
        {LANGUAGES.map((other) => (
          <a href={`?lang=${other}`} lang={other} aria-current={other === l ? 'page' : undefined}>
            {other.toUpperCase()}
          </a>
        ))}
      </nav>
    </PageShell>
  );
}

/**
 * How an invoice still due is paid: "pay now" through the company's payment provider when it has one (`payUrl`),
 * and the amount, by when, to which account, with which reference.
 */
export function PaymentBox(props: {
  view: DocumentPdfView;
  bic: string | null;
  language: Language;
  payUrl?: string | null;
}) {
  const { view, bic, language: l, payUrl } = props;
  const labels = PDF_LABELS[l];
  const settled = view.mark ? labels.settled[view.mark] : null;
  if (settled) return <p class="status">{settled}</p>;
  const due = view.totals.amountDue ?? view.totals.total;
  if (!view.dueDate || Number(due) <= 0) return null;
  const money = formatMoney(due, view.currency, l);
  return (
    <section class="box" aria-labelledby="pay">
      <h2 id="pay">{say('payHeading', l)}</h2>
      {payUrl ? (
        <>
          <p>{say('payOnline', l, { amount: money })}</p>
          <p>
            <a class="button" href={payUrl} rel="nofollow">
              {say('payNow', l)}
            </a>
          </p>
          <p>{say('orTransfer', l)}</p>
        </>
      ) : null}
      <p>{labels.payBy(money, formatDate(view.dueDate, l), view.company.iban ?? null, view.number)}</p>
      {view.company.iban ? (
        <dl>
          <dt>{labels.amountDue}</dt>
          <dd>{money}</dd>
          <dt>{say('payee', l)}</dt>
          <dd>{view.company.legalName ?? view.company.name}</dd>
          <dt>{labels.iban}</dt>
          <dd>{view.company.iban}</dd>
          {bic ? (
            <>
              <dt>{say('bic', l)}</dt>
              <dd>{bic}</dd>
            </>
          ) : null}
          <dt>{say('paymentReference', l)}</dt>
          <dd>{view.number}</dd>
          <dt>{labels.dueDate}</dt>
          <dd>{formatDate(view.dueDate, l)}</dd>
        </dl>
      ) : (
        <p>{say('noBankDetails', l, { company: view.company.name })}</p>
      )}
    </section>
  );
}

/** The customer's answer: accept, or decline with an optional reason; one form, two buttons. */
export function AnswerForm(props: { language: Language; formToken: string; total: string }) {
  const l = props.language;
  return (
    <section class="box" aria-labelledby="answer">
      <h2 id="answer">{say('answerHeading', l)}</h2>
      <form method="post">
        <input type="hidden" name="form_token" value={props.formToken} />
        <p>{say('acceptHint', l, { total: props.total })}</p>
        <label for="reason">{say('reason', l)}</label>
        <textarea id="reason" name="reason" maxlength={MAX_REASON} />
        <div class="actions">
          <button type="submit" name="answer" value="accept">
            {say('accept', l)}
          </button>
          <button type="submit" name="answer" value="reject" class="secondary">
            {say('reject', l)}
          </button>
        </div>
      </form>
    </section>
  );
}

/** A quote past its last valid day (the daily job may not have marked it yet) cannot be accepted online. */
const pastValidity = (row: QuoteRow, company: CompanyDefaults) =>
  row.status === 'expired' || row.validUntil < company.today;

/** Drafts and quotes awaiting review were never sent: their link shows nothing yet. */
const unsent = (status: string) => status === 'draft' || status === 'pending_review';

function QuoteStatus(props: { row: QuoteRow; company: CompanyDefaults; language: Language }) {
  const { row, company, language: l } = props;
  const when = (at: Date | null) => (at ? formatDateTime(at, l, company.timeZone) : '');
  if (row.status === 'accepted' || row.status === 'completed')
    return <p class="status">{say('accepted', l, { date: when(row.acceptedAt), company: company.name })}</p>;
  if (row.status === 'rejected') return <p class="status">{say('rejected', l, { date: when(row.rejectedAt) })}</p>;
  if (pastValidity(row, company))
    return <p class="status">{say('expired', l, { date: formatDate(row.validUntil, l), company: company.name })}</p>;
  return null;
}

/** A render through a public link past its address's or its document's limit. */
class RenderRefused extends Error {
  constructor(readonly decision: RateDecision) {
    super('too many PDF renders through public links');
  }
}

export const documentPageWindow = (deps: Deps) =>
  pageWindow(deps.config, deps.documentPageLimits, (c, l) => sayText(c, l, 'tooManyTitle', 'tooMany', 429));

export function documentPages(deps: Deps) {
  const forms = new FormTokens('quote', deps.linkSecrets.current, deps.linkSecrets.previous);
  const secureCookie = deps.config.publicUrl.startsWith('https:');
  const pages = new Hono();
  const unknown = (c: Context) => {
    const l = languageOf(c, 'en');
    return sayText(c, l, 'unknownTitle', 'unknown', 404);
  };
  const linked = (c: Context, kind: DocumentKind): LinkedDocument | null =>
    deps.documentLinks.verify(kind, c.req.param('token') ?? '');
  const fileUrl = (companyId: string, fileId: string) => deps.fileLinks.url({ companyId, fileId });

  /**
   * The PDF of a sent document; the link's own check stands in for the API key. A kept PDF is answered as it is; a
   * render counts against the link's document and the client's address first (RenderRefused: a 429 page) and holds
   * one of the company's PDF slots (the renderer takes it), as through the API: a public link cannot take them all
   * (ConcurrencyLimited: a 429 page). Downloads of a kept PDF hold none: they cost a read.
   */
  const pdf = (kind: DocumentKind, find: (tx: Tx, doc: LinkedDocument) => Promise<PdfDocument | undefined>) =>
    pages.get(`/${kind}/:token/pdf`, async (c) => {
      const doc = linked(c, kind);
      if (!doc) return unknown(c);
      const aroundRender = async (render: () => Promise<Buffer>) => {
        const address = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), deps.config.trustedProxies);
        const [byAddress, byDocument] = await Promise.all([
          deps.publicRenderLimits.address.consume(address),
          deps.publicRenderLimits.document.consume(`${doc.companyId}:${doc.documentId}`),
        ]);
        const refused = [byAddress, byDocument].find((d) => !d.allowed);
        if (refused) throw new RenderRefused(refused);
        return render();
      };
      try {
        const download = await pdfDownload(tenantOf(deps, doc.companyId), deps.pdfRenderer, (tx) => find(tx, doc), {
          aroundRender,
        });
        if (!download) return unknown(c);
        return c.body(download.pdf, 200, { ...download.headers, 'Referrer-Policy': 'same-origin' });
      } catch (error) {
        if (error instanceof ConcurrencyLimited) {
          c.header('Retry-After', error.headers['Retry-After']);
          return sayText(c, languageOf(c, 'en'), 'tooManyTitle', 'tooMany', 429);
        }
        if (!(error instanceof RenderRefused)) throw error;
        refusalHeaders(c, error.decision);
        return sayText(c, languageOf(c, 'en'), 'tooManyTitle', 'tooManyRenders', 429);
      }
    });

  pdf('quote', async (tx, doc) => {
    const row = await quoteQueries.findQuote(tx, doc.companyId, doc.documentId);
    return row && !unsent(row.status) ? quotePdf(row) : undefined;
  });
  pdf('invoice', async (tx, doc) => {
    const row = await invoiceQueries.findInvoice(tx, doc.companyId, doc.documentId);
    return row && row.status !== 'draft' ? invoicePdf(row) : undefined;
  });

  pages.get('/quote/:token', async (c) => {
    const doc = linked(c, 'quote');
    if (!doc) return unknown(c);
    const found = await withTenant(deps.db, doc.companyId, async (tx) => {
      const current = await quoteQueries.lockQuote(tx, doc.companyId, doc.documentId);
      if (!current || unsent(current.status)) return undefined;
      const row = await markQuoteViewed(tx, current);
      const company = await companyDefaults(tx, doc.companyId);
      const attachments = await visibleAttachments(tx, doc.companyId, row.id);
      return { row, company, attachments };
    });
    if (!found) return unknown(c);
    const { row, company } = found;
    const l = languageOf(c, row.language);
    const view = pdfViewOf(quotePdf(row), company);
    const open = DECIDABLE_ONLINE.some((s) => s === row.status) && !pastValidity(row, company);
    // The nonce of an earlier visit is kept: the page still open in another tab stays valid.
    const kept = getCookie(c, FORM_COOKIE);
    const nonce = kept && NONCE.test(kept) ? kept : forms.newNonce();
    protectPage(c);
    if (open)
      setCookie(c, FORM_COOKIE, nonce, {
        path: `/quote/${c.req.param('token')}`,
        httpOnly: true,
        sameSite: 'Strict',
        secure: secureCookie,
        maxAge: FORM_SECONDS,
      });
    return c.html(
      <DocumentPage
        view={{ ...view, language: l }}
        language={l}
        extras={{
          pdfUrl: `${c.req.path}/pdf`,
          attachments: found.attachments.map((a) => ({ name: a.file.name, url: fileUrl(a.companyId, a.fileId) })),
          intro: row.introText,
          description: row.description,
          status: <QuoteStatus row={row} company={company} language={l} />,
          action: open ? (
            <AnswerForm
              language={l}
              formToken={forms.issue(row.id, nonce)}
              total={formatMoney(row.total, row.currency, l)}
            />
          ) : null,
        }}
      />,
    );
  });

  pages.post('/quote/:token', async (c) => {
    const doc = linked(c, 'quote');
    if (!doc) return unknown(c);
    const pageUrl = c.req.url.replace(/^https?:\/\/[^/]+/, '');
    const refuse = (status: 403 | 413 | 415, l = languageOf(c, 'en')) =>
      message(c, l, say('forbiddenTitle', l), say('forbidden', l), status, { href: pageUrl, text: say('reopen', l) });
    if (crossSite(c, deps.config.publicUrl)) return refuse(403);
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return refuse(415);
    if (Number(c.req.header('content-length') ?? '0') > MAX_FORM_BYTES) return refuse(413);
    const raw = await c.req.text();
    if (Buffer.byteLength(raw) > MAX_FORM_BYTES) return refuse(413);
    const form = new URLSearchParams(raw);
    const answer = form.get('answer');
    const reason = (form.get('reason') ?? '').trim();
    const nonce = getCookie(c, FORM_COOKIE);

    const outcome = await withTenant(deps.db, doc.companyId, async (tx) => {
      const current = await quoteQueries.lockQuote(tx, doc.companyId, doc.documentId);
      if (!current || unsent(current.status)) return { kind: 'unknown' as const };
      const company = await companyDefaults(tx, doc.companyId);
      const l = languageOf(c, current.language);
      if (!forms.verify(form.get('form_token') ?? '', current.id, nonce)) return { kind: 'forged' as const, l };
      if (!DECIDABLE_ONLINE.some((s) => s === current.status)) return { kind: 'decided' as const, l };
      if (pastValidity(current, company)) return { kind: 'expired' as const, l, current, company };
      if (answer === 'accept') await acceptQuote(tx, current, DECIDABLE_ONLINE);
      else if (answer === 'reject' && !acceptableReason(reason)) return { kind: 'unacceptable' as const, l };
      else if (answer === 'reject') await rejectQuote(tx, current, reason || null, DECIDABLE_ONLINE);
      else return { kind: 'forged' as const, l };
      return { kind: 'answered' as const };
    });
    if (outcome.kind === 'unknown') return unknown(c);
    if (outcome.kind === 'answered') return c.redirect(pageUrl, 303);
    const { l } = outcome;
    if (outcome.kind === 'forged') return refuse(403, l);
    if (outcome.kind === 'unacceptable')
      return message(c, l, say('reasonTitle', l), say('reasonRefused', l, { max: formatNumber(MAX_REASON, l) }), 422, {
        href: pageUrl,
        text: say('reopen', l),
      });
    if (outcome.kind === 'decided')
      return message(c, l, say('decidedTitle', l), say('decided', l), 409, { href: pageUrl, text: say('reopen', l) });
    const expired = say('expired', l, {
      date: formatDate(outcome.current.validUntil, l),
      company: outcome.company.name,
    });
    return message(c, l, say('decidedTitle', l), expired, 410, { href: pageUrl, text: say('reopen', l) });
  });

  // "Pay now" (an invoice's pay_url): a payment at the company's provider for the amount due, and the customer sent
  // to its checkout (303); without a provider or anything due, back to the invoice's page, which says how to pay
  // or that it is paid. A provider that fails answers a page (503) and creates nothing.
  pages.get('/invoice/:token/pay', async (c) => {
    const doc = linked(c, 'invoice');
    if (!doc) return unknown(c);
    // Counted per link besides the per-address window of every page (documentPageWindow): a click may ask the
    // company's payment provider.
    const perLink = await deps.payStartLimits.consume(`${doc.companyId}:${doc.documentId}`);
    if (!perLink.allowed) {
      refusalHeaders(c, perLink);
      return sayText(c, languageOf(c, 'en'), 'tooManyTitle', 'tooMany', 429);
    }
    const pageUrl = deps.documentLinks.url(doc);
    const started = await startInvoicePayment(
      { db: deps.db, paymentKeys: deps.paymentKeys, serviceUrl: deps.config.publicUrl, log: deps.log },
      doc.companyId,
      doc.documentId,
      pageUrl,
    );
    if (started.kind === 'unknown') return unknown(c);
    if (started.kind === 'checkout') return c.redirect(started.url, 303);
    const pagePath = c.req.path.replace(/\/pay$/, '');
    if (started.kind !== 'unavailable') return c.redirect(pagePath, 303);
    const l = languageOf(c, started.language);
    c.header('Retry-After', '60');
    return message(c, l, say('payUnavailableTitle', l), say('payUnavailable', l), 503, {
      href: pagePath,
      text: say('openInvoice', l),
    });
  });

  pages.get('/invoice/:token', async (c) => {
    const doc = linked(c, 'invoice');
    if (!doc) return unknown(c);
    const found = await withTenant(deps.db, doc.companyId, async (tx) => {
      const current = await invoiceQueries.lockInvoice(tx, doc.companyId, doc.documentId);
      if (!current || current.status === 'draft') return undefined;
      const row = await markInvoiceViewed(tx, current, deps.config.publicUrl);
      const online = payableNow(row) && (await hasPaymentProvider(tx, doc.companyId));
      return { row, company: await companyDefaults(tx, doc.companyId), online };
    });
    if (!found) return unknown(c);
    const { row, company } = found;
    const l = languageOf(c, row.language);
    const view = { ...pdfViewOf(invoicePdf(row), company), language: l };
    if (row.status === 'cancelled') {
      const labels = PDF_LABELS[l];
      return message(c, l, say('cancelledTitle', l), labelled(row.number, labels.settled.cancelled ?? '', l), 410);
    }
    protectPage(c);
    return c.html(
      <DocumentPage
        view={view}
        language={l}
        extras={{
          pdfUrl: `${c.req.path}/pdf`,
          attachments: [],
          intro: null,
          description: row.description,
          status: null,
          action: (
            <PaymentBox
              view={view}
              bic={company.bic}
              language={l}
              payUrl={found.online ? `${c.req.path}/pay${c.req.query('lang') ? `?lang=${l}` : ''}` : null}
            />
          ),
        }}
      />,
    );
  });
  return pages;
}
