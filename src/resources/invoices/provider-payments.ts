// "Pay now": payments of an invoice through the company's payment provider (src/payments). Starting one creates a
// payment at the provider for the amount due (at most one open payment per invoice and amount: a second start
// reuses it) and answers its checkout address; the provider is called between two short transactions, never while
// one (or a row lock, or a pool connection) is held. The provider's webhook only names a payment: the service fetches
// it from the provider (syncProviderPayment) and applies what the provider says, under the invoice's lock, so
// duplicate, late and out-of-order webhooks change nothing twice. A paid payment is recorded on the invoice
// exactly once (invoice_payments' unique provider payment id) through the same code as *Record a payment*.
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { paymentWebhookUrlOf } from '../../api-address.ts';
import type { Db } from '../../db/client.ts';
import { queueJob } from '../../db/job-queue.ts';
import { type ProviderPaymentStatus, providerPayments } from '../../db/schema/index.ts';
import { type Tx, withTenant } from '../../db/tenant.ts';
import { toCents } from '../../domain/money.ts';
import { newId } from '../../ids.ts';
import type { Language } from '../../languages.ts';
import { type PaymentAccount, paymentAccountOf } from '../../payments/accounts.ts';
import type { ProviderPayment } from '../../payments/provider.ts';
import { PROVIDER_TIMEOUT_MS, ProviderRefused, ProviderUnavailable } from '../../payments/provider.ts';
import { type SecretBox, UnreadableSecret } from '../../payments/secret-box.ts';
import { recordInvoicePayment } from './payments.ts';
import * as q from './queries.ts';
import { amountDue, type InvoiceRow, PAYABLE, type PaymentRow } from './serialize.ts';

export type ProviderPaymentDeps = {
  db: Db;
  /** The installation's box of provider keys (src/payments/secret-box.ts), opened once per process. */
  paymentKeys: () => Promise<SecretBox>;
  serviceUrl: string;
  log: Logger;
};

const DESCRIPTION: Record<Language, string> = {
  en: 'Invoice {number}',
  nl: 'Factuur {number}',
  de: 'Rechnung {number}',
  fr: 'Facture {number}',
};
const LOCALE: Record<Language, string> = { en: 'en_US', nl: 'nl_NL', de: 'de_DE', fr: 'fr_FR' };

/** A started payment: where the customer pays, or why there is nothing to pay online. */
export type PaymentStart =
  | { kind: 'checkout'; url: string }
  /** No such invoice, or a draft (its link shows nothing). */
  | { kind: 'unknown' }
  /** Nothing due, or a state that takes no payment: the invoice's page says which. */
  | { kind: 'not_payable' }
  | { kind: 'no_provider' }
  /** The provider could not be reached or refused: nothing was created, try again later. */
  | { kind: 'unavailable'; language: Language };

/** A payment still open at the provider past its expiry is looked at again before it is reused. */
const REUSE_MARGIN_MS = 60_000;
/**
 * How long a click's claim on the invoice's payment lasts (the provider's call is cut off after
 * PROVIDER_TIMEOUT_MS): past it, a process that died between claiming and recording blocks no one.
 */
const CLAIM_MS = PROVIDER_TIMEOUT_MS * 3;
/** How long a second click waits for the first one's payment before it answers "try again" (503). */
const WAIT_MS = PROVIDER_TIMEOUT_MS + 2_000;
const WAIT_STEP_MS = 100;

/** What the claim's short transaction found: an answer, or what to do outside any transaction. */
type ClaimStep =
  | PaymentStart
  | { kind: 'create'; claim: ProviderPaymentRow; account: PaymentAccount; invoice: InvoiceRow }
  | { kind: 'check'; row: ProviderPaymentRow; account: PaymentAccount; language: Language }
  | { kind: 'wait' };

/**
 * Starts paying the invoice's amount due: reuses the open payment of this amount or creates one at the provider
 * (with the invoice in its metadata, `redirectUrl` the invoice's page). The provider is never called inside a
 * transaction: a short one claims the invoice's payment (a `creating` row, unique per invoice and amount with the
 * open one), the provider is asked, and a second short one records its answer. A click that finds another's claim
 * waits for its payment (at most WAIT_MS, then "try again"); a claim older than CLAIM_MS is taken over.
 */
export async function startInvoicePayment(
  deps: ProviderPaymentDeps,
  companyId: string,
  invoiceId: string,
  invoicePageUrl: string,
): Promise<PaymentStart> {
  const box = await deps.paymentKeys();
  const waitUntil = Date.now() + WAIT_MS;
  let language: Language = 'en';
  for (;;) {
    const step = await withTenant(deps.db, companyId, (tx) => claimPayment(tx, deps, box, companyId, invoiceId));
    if (step.kind === 'wait') {
      if (Date.now() > waitUntil) return { kind: 'unavailable', language };
      await sleep(WAIT_STEP_MS);
      continue;
    }
    if (step.kind !== 'create' && step.kind !== 'check') return step;
    language = step.kind === 'create' ? step.invoice.language : step.language;
    try {
      if (step.kind === 'check') {
        // Past its expiry: what the provider says now decides (it may have been paid meanwhile).
        const remote = await step.account.provider.getPayment(step.row.providerPaymentId ?? '');
        if (remote?.status === 'open' && remote.checkoutUrl) return { kind: 'checkout', url: remote.checkoutUrl };
        await applyFetched(deps, step.row, remote);
        continue;
      }
      const url = await createAtProvider(deps, step, invoicePageUrl);
      if (url) return { kind: 'checkout', url };
      // The claim was taken over meanwhile (this click outlived CLAIM_MS): the payment now open is the one.
      deps.log.warn({ companyId, invoiceId }, 'pay now: the claim expired before the provider answered');
    } catch (error) {
      if (step.kind === 'create')
        await withTenant(deps.db, companyId, (tx) =>
          tx.delete(providerPayments).where(and(rowKey(step.claim), eq(providerPayments.status, 'creating'))),
        );
      if (!(error instanceof ProviderUnavailable || error instanceof ProviderRefused)) throw error;
      deps.log.warn({ companyId, invoiceId, err: error.message }, 'pay now: the payment provider failed');
      return { kind: 'unavailable', language };
    }
  }
}

/** The claim's transaction: the invoice's state, and its payment open, claimed by another click, or claimed now. */
async function claimPayment(
  tx: Tx,
  deps: ProviderPaymentDeps,
  box: SecretBox,
  companyId: string,
  invoiceId: string,
): Promise<ClaimStep> {
  const invoice = await q.lockInvoice(tx, companyId, invoiceId);
  if (!invoice || invoice.status === 'draft') return { kind: 'unknown' };
  const due = amountDue(invoice);
  if (!PAYABLE.includes(invoice.status) || toCents(due) <= 0n) return { kind: 'not_payable' };
  let account: PaymentAccount | null;
  try {
    account = await paymentAccountOf(tx, companyId, box);
  } catch (error) {
    if (!(error instanceof UnreadableSecret)) throw error;
    // PAYMENT_KEYS_SECRET changed since the key was stored: the operator must connect the provider again.
    deps.log.error({ companyId, err: error.message }, 'pay now: the provider key cannot be opened');
    return { kind: 'unavailable', language: invoice.language };
  }
  if (!account) return { kind: 'no_provider' };
  const [current] = await tx
    .select()
    .from(providerPayments)
    .where(
      and(
        eq(providerPayments.companyId, companyId),
        eq(providerPayments.invoiceId, invoiceId),
        eq(providerPayments.amount, due),
        inArray(providerPayments.status, ['creating', 'open']),
      ),
    )
    .for('update');
  const now = Date.now();
  if (current?.status === 'open') {
    if (current.checkoutUrl && (!current.expiresAt || current.expiresAt.getTime() > now + REUSE_MARGIN_MS))
      return { kind: 'checkout', url: current.checkoutUrl };
    return { kind: 'check', row: current, account, language: invoice.language };
  }
  if (current?.expiresAt && current.expiresAt.getTime() > now) return { kind: 'wait' };
  // A claim past its time was left by a click that never finished: it is replaced by this one.
  if (current) await tx.delete(providerPayments).where(rowKey(current));
  const [claim] = await tx
    .insert(providerPayments)
    .values({
      companyId,
      id: newId(),
      invoiceId,
      provider: account.provider.name,
      providerPaymentId: null,
      amount: due,
      currency: invoice.currency,
      status: 'creating',
      expiresAt: new Date(now + CLAIM_MS),
    })
    .onConflictDoNothing()
    .returning();
  return claim ? { kind: 'create', claim, account, invoice } : { kind: 'wait' };
}

/**
 * Creates the claimed payment at the provider (no transaction open) and records it on the claim's row; null when
 * the claim is no longer this click's.
 */
async function createAtProvider(
  deps: ProviderPaymentDeps,
  { claim, account, invoice }: Extract<ClaimStep, { kind: 'create' }>,
  invoicePageUrl: string,
): Promise<string | null> {
  const created = await account.provider.createPayment({
    amount: claim.amount,
    currency: claim.currency,
    description: DESCRIPTION[invoice.language].replace('{number}', invoice.number),
    redirectUrl: invoicePageUrl,
    webhookUrl: paymentWebhookUrlOf(deps.serviceUrl, account.provider.name, account.webhookToken),
    locale: LOCALE[invoice.language],
    metadata: { invoice_id: invoice.id, invoice_number: invoice.number, company_id: invoice.companyId },
  });
  if (!created.checkoutUrl) throw new ProviderRefused(`payment ${created.id} was created without a checkout`);
  const recorded = await withTenant(deps.db, invoice.companyId, (tx) =>
    tx
      .update(providerPayments)
      .set({
        providerPaymentId: created.id,
        status: created.status,
        checkoutUrl: created.checkoutUrl,
        expiresAt: created.expiresAt,
        method: created.method,
        updatedAt: sql`app_now()`,
      })
      .where(and(rowKey(claim), eq(providerPayments.status, 'creating')))
      .returning({ id: providerPayments.id }),
  );
  return recorded.length > 0 ? created.checkoutUrl : null;
}

/** Applies a fetched payment to its row in a short transaction (the provider no longer knowing it: expired). */
async function applyFetched(
  deps: ProviderPaymentDeps,
  found: ProviderPaymentRow,
  remote: ProviderPayment | null,
): Promise<SyncOutcome> {
  return withTenant(deps.db, found.companyId, async (tx) => {
    const invoice = await q.lockInvoice(tx, found.companyId, found.invoiceId);
    const [row] = await tx.select().from(providerPayments).where(rowKey(found)).for('update');
    if (!invoice || !row) return 'unknown';
    if (remote) return applyRemote(tx, invoice, row, remote, deps);
    if (row.status === 'open') await tx.update(providerPayments).set({ status: 'expired' }).where(rowKey(row));
    return 'updated';
  });
}

/** What a webhook (or its retry job) did. */
export type SyncOutcome = 'unknown' | 'unchanged' | 'updated' | 'recorded' | 'not_applied';

/**
 * Brings the service's copy of a provider payment up to what the provider says now (a webhook's only meaning).
 * A payment the service did not create, or that its provider does not know, is `unknown`: nothing changes.
 * ProviderUnavailable when the provider cannot be asked, UnreadableSecret when the company's key cannot be opened
 * (PAYMENT_KEYS_SECRET changed: until the operator connects the provider again): the caller queues the retry job.
 */
export async function syncProviderPayment(
  deps: ProviderPaymentDeps,
  companyId: string,
  providerPaymentId: string,
): Promise<SyncOutcome> {
  const box = await deps.paymentKeys();
  const found = await withTenant(deps.db, companyId, async (tx) => {
    const account = await paymentAccountOf(tx, companyId, box);
    const [row] = await tx
      .select()
      .from(providerPayments)
      .where(and(eq(providerPayments.companyId, companyId), eq(providerPayments.providerPaymentId, providerPaymentId)));
    return account && row ? { account, row } : undefined;
  });
  if (!found) return 'unknown';
  const remote = await found.account.provider.getPayment(providerPaymentId);
  if (!remote) return 'unknown';
  return applyFetched(deps, found.row, remote);
}

/** Queues the retry of a sync the provider could not answer (one job per payment; a later webhook replaces it). */
export async function queuePaymentSync(db: Db, companyId: string, providerPaymentId: string): Promise<void> {
  await withTenant(db, companyId, async (tx) => {
    await tx.execute(
      sql`select ${queueJob(
        'invoice_payment_sync',
        { companyId, providerPaymentId },
        { jobKey: `invoice_payment_sync:${companyId}:${providerPaymentId}` },
      )}`,
    );
  });
}

type ProviderPaymentRow = typeof providerPayments.$inferSelect;

const rowKey = (row: Pick<ProviderPaymentRow, 'companyId' | 'id'>) =>
  and(eq(providerPayments.companyId, row.companyId), eq(providerPayments.id, row.id));

/** How far a status has come: a payment never moves back (a late webhook's fetch may be older than ours). */
const RANK: Record<ProviderPaymentStatus, number> = {
  creating: 0,
  open: 0,
  pending: 1,
  authorized: 2,
  paid: 3,
  failed: 3,
  expired: 3,
  canceled: 3,
};

/** The invoice payment's method for the provider's name of it. */
const METHODS: Record<string, PaymentRow['paymentMethod']> = {
  ideal: 'ideal',
  creditcard: 'credit_card',
  bancontact: 'bancontact',
  banktransfer: 'bank_transfer',
  directdebit: 'direct_debit',
  paypal: 'paypal',
};

/**
 * Applies the provider's view of `row` (locked, with its invoice): the status moves forward only; a payment that is
 * now paid is recorded on the invoice once, unless the invoice no longer takes it (settled, cancelled or less due
 * meanwhile: kept as not applied, with the reason, for the company to refund).
 */
async function applyRemote(
  tx: Tx,
  invoice: InvoiceRow,
  row: ProviderPaymentRow,
  remote: ProviderPayment,
  deps: ProviderPaymentDeps,
): Promise<SyncOutcome> {
  // The provider's payment must be the one this row was created for (its id is; its invoice and amount must be too).
  if (remote.metadata.invoice_id !== row.invoiceId || toCents(remote.amount) !== toCents(row.amount)) {
    deps.log.warn(
      { companyId: row.companyId, providerPaymentId: row.providerPaymentId },
      'payment webhook: the provider’s payment does not match the one created (invoice or amount): ignored',
    );
    return 'unknown';
  }
  if (remote.status === row.status || RANK[remote.status] < RANK[row.status] || RANK[row.status] === 3)
    return 'unchanged';
  const paidAt = remote.paidAt && remote.paidAt.getTime() < Date.now() ? remote.paidAt : new Date();
  await tx
    .update(providerPayments)
    .set({
      status: remote.status,
      method: remote.method,
      paidAt: remote.status === 'paid' ? paidAt : null,
      checkoutUrl: remote.status === 'open' ? remote.checkoutUrl : null,
      expiresAt: remote.expiresAt,
      updatedAt: sql`app_now()`,
    })
    .where(rowKey(row));
  if (remote.status !== 'paid') return 'updated';
  const due = toCents(amountDue(invoice));
  if (!PAYABLE.includes(invoice.status) || toCents(row.amount) > due) {
    const reason = `the invoice was ${invoice.status} with ${amountDue(invoice)} due when the payment of ${row.amount} was paid`;
    await tx.update(providerPayments).set({ notAppliedReason: reason }).where(rowKey(row));
    deps.log.warn(
      { companyId: row.companyId, invoiceId: invoice.id, providerPaymentId: row.providerPaymentId },
      'payment webhook: a paid payment was not recorded on its invoice (refund it at the provider)',
    );
    return 'not_applied';
  }
  const { paymentId } = await recordInvoicePayment(
    tx,
    invoice,
    {
      amount: row.amount,
      paymentMethod: METHODS[remote.method ?? ''] ?? 'other',
      description: `${row.provider === 'mollie' ? 'Mollie' : row.provider} ${remote.id}`,
      paidAt,
      notes: null,
      provider: { name: row.provider, paymentId: remote.id },
    },
    deps.serviceUrl,
  );
  await tx.update(providerPayments).set({ invoicePaymentId: paymentId }).where(rowKey(row));
  return 'recorded';
}
