// A customer's fields as the API sends them → its columns; shared by the single operations and the batch.
import type { z } from 'zod';
import type { CustomerUpdateSchema } from '../../../generated/routes.ts';
import { type IdentifierRule, identifierProblems } from '../../domain/identifiers.ts';
import type { Message } from '../../http/message-catalogue.ts';
import type { FieldError } from '../../http/problems.ts';
import { customerMessages } from './messages.ts';
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

/** The text of a broken identifier rule (src/domain/identifiers.ts), in the request's language. */
export function identifierMessage(rule: IdentifierRule): Message {
  switch (rule) {
    case 'BR-CO-09':
    case 'VAT':
    case 'IBAN':
    case 'BIC':
    case 'KVK':
    case 'PEPPOL-COMMON-R043':
    case 'PEPPOL-ID':
    case 'PEPPOL-EN16931-CL008':
      return customerMessages.message(`identifier.${rule}`);
    default:
      return customerMessages.message('identifier.scheme', { rule });
  }
}

/**
 * The identifiers of a customer's input that break their rules, as 422 field errors (`invalid_identifier`, with the
 * rule) under `prefix` (`` for a single customer, `/items/3` in a batch). A chamber-of-commerce number is judged by
 * the input's country, else the stored one.
 */
export function identifierErrors(body: CustomerInput, prefix: string, storedCountry: string | null): FieldError[] {
  return identifierProblems(body, storedCountry).map(({ field, rule }) => ({
    pointer: `${prefix}/${field}`,
    parameter: null,
    code: 'invalid_identifier',
    detail: identifierMessage(rule),
    rule,
  }));
}
