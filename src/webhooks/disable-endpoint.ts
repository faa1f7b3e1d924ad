// Disabling an endpoint that failed for 5 days (or whose address now resolves to an internal one): its pending
// deliveries fail with it, and the company's administrators are told by email.
import { and, eq, or, sql } from 'drizzle-orm';
import { notBefore } from '../db/change-time.ts';
import { companies, users, webhookEndpoints } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import type { Language } from '../languages.ts';
import { queueEmail } from '../mail/outbox.ts';
import type { EndpointRow } from './send.ts';

/** Disables the endpoint, fails its pending deliveries and tells the company's administrators. */
export async function disableEndpoint(
  tx: Tx,
  r: { companyId: string; endpoint: EndpointRow; at: Date },
  reason: 'failing_for_5_days' | 'url_not_allowed',
) {
  const [changed] = await tx
    .update(webhookEndpoints)
    .set({
      status: 'disabled',
      disabledReason: reason,
      disabledAt: r.at,
      // The worker's transaction may have waited for the endpoint behind an API change with a later time.
      updatedAt: notBefore(webhookEndpoints.updatedAt),
      version: sql`${webhookEndpoints.version} + 1`,
    })
    .where(
      and(
        eq(webhookEndpoints.companyId, r.companyId),
        eq(webhookEndpoints.id, r.endpoint.id),
        eq(webhookEndpoints.status, 'active'),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (!changed) return;
  // Only the pending deliveries nobody holds: this transaction holds the endpoint, and concurrent attempts of
  // the same endpoint hold their delivery and wait for the endpoint (deliveries before endpoint), so waiting
  // for theirs here would deadlock. They settle their own delivery as failed once they see it disabled.
  await tx.execute(sql`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = app_now()
    where company_id = ${r.companyId} and id in (
      select id from webhook_deliveries
      where company_id = ${r.companyId} and endpoint_id = ${r.endpoint.id} and status = 'pending'
      for update skip locked)`);
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.companyId, r.companyId),
        eq(users.status, 'active'),
        or(eq(users.isOwner, true), eq(users.role, 'administrator')),
      ),
    );
  const [company] = await tx
    .select({ language: companies.language })
    .from(companies)
    .where(eq(companies.id, r.companyId));
  const words = DISABLED_EMAIL[company?.language ?? 'en'];
  const values = { id: r.endpoint.id, url: r.endpoint.url, why: words[reason] };
  await queueEmail(tx, r.companyId, {
    to: admins.map((a) => a.email),
    kind: 'webhook_endpoint_disabled',
    subject: fill(words.subject, values),
    text: fill(words.text, values),
  });
}

/** The administrators' email in the company's language. */
export const DISABLED_EMAIL: Record<
  Language,
  { subject: string; text: string; failing_for_5_days: string; url_not_allowed: string }
> = {
  en: {
    subject: 'Webhook endpoint {url} was disabled',
    text: 'The webhook endpoint {id} ({url}) was disabled because {why}. Fix the receiver, then re-enable the endpoint and recover the failed messages.',
    failing_for_5_days: 'every delivery to it failed for 5 days',
    url_not_allowed: 'its address now resolves to an internal network address',
  },
  nl: {
    subject: 'Webhook-endpoint {url} is uitgeschakeld',
    text: 'Het webhook-endpoint {id} ({url}) is uitgeschakeld omdat {why}. Herstel de ontvanger, schakel het endpoint daarna weer in en haal de mislukte berichten opnieuw op.',
    failing_for_5_days: 'elke bezorging eraan 5 dagen lang is mislukt',
    url_not_allowed: 'het adres nu naar een intern netwerkadres verwijst',
  },
  de: {
    subject: 'Webhook-Endpunkt {url} wurde deaktiviert',
    text: 'Der Webhook-Endpunkt {id} ({url}) wurde deaktiviert, weil {why}. Beheben Sie den Fehler beim Empfänger, aktivieren Sie den Endpunkt dann wieder und stellen Sie die fehlgeschlagenen Nachrichten erneut zu.',
    failing_for_5_days: 'jede Zustellung an ihn 5 Tage lang fehlgeschlagen ist',
    url_not_allowed: 'seine Adresse jetzt auf eine interne Netzwerkadresse verweist',
  },
  fr: {
    subject: 'Le point de terminaison webhook {url} a été désactivé',
    text: 'Le point de terminaison webhook {id} ({url}) a été désactivé parce que {why}. Corrigez le récepteur, puis réactivez le point de terminaison et récupérez les messages en échec.',
    failing_for_5_days: 'toutes les livraisons ont échoué pendant 5 jours',
    url_not_allowed: 'son adresse pointe désormais vers une adresse de réseau interne',
  },
};

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
