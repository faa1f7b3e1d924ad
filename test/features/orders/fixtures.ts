// Orders come from webshop forms, not the API: tests bring them in through the import (as `orders import` does).
import { withTenant } from '../../../src/db/tenant.ts';
import { type ImportedOrder, importOrder } from '../../../src/resources/orders/import.ts';
import type { TestApi } from '../../harness/api.ts';

export function orderInput(overrides: Partial<ImportedOrder> = {}): ImportedOrder {
  return {
    number: `WS-${crypto.randomUUID().slice(0, 8)}`,
    status: 'paid',
    customer: {
      name: 'Fatima el Amrani',
      email: `${crypto.randomUUID()}@example.nl`,
      phone: '+31 6 1234 5678',
      company_name: null,
      vat_number: null,
    },
    billing_address: { address: 'Biltstraat 42', postal_code: '3572 BE', city: 'Utrecht', country: 'NL' },
    shipping_address: { address: 'Biltstraat 42', postal_code: '3572 BE', city: 'Utrecht', country: 'NL' },
    form_title: 'Bestel uw koffie',
    language: 'nl',
    currency: 'EUR',
    subtotal: '60.65',
    discount_amount: '0.00',
    shipping_cost: '4.95',
    tax_amount: '8.28',
    total: '73.88',
    payment_method: 'ideal',
    tracking_code: null,
    tracking_url: null,
    invoice_id: null,
    quote_id: null,
    paid_at: '2026-03-10T19:43:55Z',
    shipped_at: null,
    delivered_at: null,
    cancelled_at: null,
    refunded_at: null,
    items: [
      {
        type: 'product',
        name: 'Espressobonen Huisblend 1 kg',
        description: 'Versgebrand, hele bonen',
        quantity: '2.00',
        unit: 'stuk',
        unit_price: '22.90',
        discount_percentage: '0.00',
        discount_amount: '0.00',
        line_total: '45.80',
        is_taxable: true,
        tax_rate: '9.00',
      },
      {
        type: 'product',
        name: 'Melkopschuimkan RVS 600 ml',
        description: null,
        quantity: '1.00',
        unit: 'stuk',
        unit_price: '16.50',
        discount_percentage: '10.00',
        discount_amount: '1.65',
        line_total: '14.85',
        is_taxable: true,
        tax_rate: '21.00',
      },
    ],
    ...overrides,
  };
}

/** A new order of the company (imported), its id. */
export async function orderOf(api: TestApi, companyId: string, overrides: Partial<ImportedOrder> = {}) {
  const result = await withTenant(api.db, companyId, (tx) => importOrder(tx, companyId, orderInput(overrides)));
  return result.id;
}

export const MISSING = '01900000-0000-7000-8000-000000000000';
