import type { companies, users } from '../../db/schema/index.ts';
import type { ReminderStep } from '../../domain/reminder-schedule.ts';
import { iso } from '../../http/serialize.ts';

export function serializeCompany(row: typeof companies.$inferSelect) {
  return {
    object: 'company' as const,
    id: row.id,
    name: row.name,
    legal_name: row.legalName,
    email: row.email,
    phone: row.phone,
    website: row.website,
    address: row.address,
    postal_code: row.postalCode,
    city: row.city,
    country: row.country,
    language: row.language,
    time_zone: row.timeZone,
    currency: row.currency,
    vat_number: row.vatNumber,
    coc_number: row.cocNumber,
    iban: row.iban,
    bic: row.bic,
    peppol_id: row.peppolId,
    vat_exemption_reason: row.vatExemptionReason,
    einvoice_attachment: row.einvoiceAttachment,
    prices_include_tax: row.pricesIncludeTax,
    default_tax_rate: row.defaultTaxRate,
    default_payment_term_days: row.defaultPaymentTermDays,
    default_quote_validity_days: row.defaultQuoteValidityDays,
    features: row.features,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function serializeUser(row: typeof users.$inferSelect) {
  return {
    object: 'user' as const,
    id: String(row.id),
    name: row.name,
    email: row.email,
    role: row.role,
    is_owner: row.isOwner,
    status: row.status,
    created_at: iso(row.createdAt),
  };
}

export const serializeReminderSchedule = (steps: readonly ReminderStep[]) => ({
  object: 'invoice_reminder_schedule' as const,
  steps: steps.map((step) => ({ days_after_due: step.days_after_due, kind: step.kind })),
});
