// A customer's fields as the API sends them → its columns; shared by the single operations and the batch.
import type { z } from 'zod';
import type { CustomerUpdateSchema } from '../../../generated/routes.ts';
import type { CustomerFields } from './queries.ts';

export type CustomerInput = z.output<typeof CustomerUpdateSchema>;

/** Body fields → columns, only for the fields that were sent. */
export function columnsOf(body: CustomerInput): CustomerFields {
  const map: CustomerFields = {};
  if (body.email !== undefined) map.email = body.email;
  if (body.type !== undefined) map.type = body.type;
  if (body.name !== undefined) map.name = body.name;
  if (body.phone !== undefined) map.phone = body.phone;
  if (body.address !== undefined) map.address = body.address;
  if (body.city !== undefined) map.city = body.city;
  if (body.postal_code !== undefined) map.postalCode = body.postal_code;
  if (body.country !== undefined) map.country = body.country?.toUpperCase() ?? null;
  if (body.company_name !== undefined) map.companyName = body.company_name;
  if (body.vat_number !== undefined) map.vatNumber = body.vat_number;
  if (body.coc_number !== undefined) map.cocNumber = body.coc_number;
  if (body.peppol_id !== undefined) map.peppolId = body.peppol_id;
  return map;
}
