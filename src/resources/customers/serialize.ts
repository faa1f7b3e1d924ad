import type { customers } from '../../db/schema/index.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';

export type CustomerRow = typeof customers.$inferSelect;

export function serializeCustomer(row: CustomerRow) {
  return {
    object: 'customer' as const,
    id: row.id,
    type: row.type,
    status: row.status,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company_name: row.companyName,
    vat_number: row.vatNumber,
    coc_number: row.cocNumber,
    peppol_id: row.peppolId,
    address: row.address,
    postal_code: row.postalCode,
    city: row.city,
    country: row.country,
    email_unsubscribed: row.emailUnsubscribed,
    converted_at: isoOrNull(row.convertedAt),
    last_activity_at: isoOrNull(row.lastActivityAt),
    metadata: row.metadata,
    custom_fields: row.customFields,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
