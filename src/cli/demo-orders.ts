// The demo's webshop orders: one in every status, from demo customers (matched by email address like any
// imported order), brought in through the same path as `orders import`.
import type { Tx } from '../db/tenant.ts';
import { type ImportedOrder, importOrder } from '../resources/orders/import.ts';
import { DEMO_CUSTOMERS } from './demo-data/customers.ts';

const DAY_MS = 86_400_000;
const STATUSES = ['pending_payment', 'paid', 'processing', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;

const LINES = [
  { name: 'Thermostaatkraan Danfoss RA-N 15', unit_price: '34.50', tax_rate: '21.00' },
  { name: 'Cv-filter magnetisch 22 mm', unit_price: '89.00', tax_rate: '21.00' },
  { name: 'Ontluchtingssleutel messing', unit_price: '2.95', tax_rate: '21.00' },
] as const;

const cents = (amount: string) => Math.round(Number(amount) * 100);
const amount = (value: number) => (value / 100).toFixed(2);

function demoOrder(status: (typeof STATUSES)[number], i: number, now: Date): ImportedOrder {
  const customer = DEMO_CUSTOMERS[i % DEMO_CUSTOMERS.length];
  if (!customer) throw new Error('no demo customers');
  const placed = new Date(now.getTime() - (30 - i * 3) * DAY_MS);
  placed.setUTCMilliseconds(0);
  const at = (days: number) =>
    status === 'pending_payment' ? null : new Date(placed.getTime() + days * DAY_MS).toISOString();
  const line = LINES[i % LINES.length] as (typeof LINES)[number];
  const quantity = (i % 3) + 1;
  const lineTotal = cents(line.unit_price) * quantity;
  const shipping = lineTotal >= 5000 ? 0 : 495;
  const tax = Math.round((lineTotal + shipping) * 0.21);
  const address = { address: customer.address, postal_code: customer.postalCode, city: customer.city, country: 'NL' };
  const reached = (s: (typeof STATUSES)[number]) => STATUSES.indexOf(status) >= STATUSES.indexOf(s);
  return {
    number: `WS-DEMO-${String(i + 1).padStart(4, '0')}`,
    status,
    customer: {
      name: customer.name,
      email: customer.email,
      phone: customer.phone,
      company_name: customer.companyName ?? null,
      vat_number: customer.vatNumber ?? null,
    },
    billing_address: address,
    shipping_address: address,
    form_title: 'Onderdelen bestellen',
    language: 'nl',
    currency: 'EUR',
    subtotal: amount(lineTotal),
    discount_amount: '0.00',
    shipping_cost: amount(shipping),
    tax_amount: amount(tax),
    total: amount(lineTotal + shipping + tax),
    payment_method: status === 'pending_payment' ? 'bank_transfer' : 'ideal',
    tracking_code: reached('shipped') && status !== 'cancelled' ? `3SDEMO${1000 + i}` : null,
    tracking_url: null,
    invoice_id: null,
    quote_id: null,
    paid_at: at(0),
    shipped_at: reached('shipped') && status !== 'cancelled' && status !== 'refunded' ? at(1) : null,
    delivered_at: status === 'delivered' ? at(2) : null,
    cancelled_at: status === 'cancelled' ? at(1) : null,
    refunded_at: status === 'refunded' ? at(2) : null,
    created_at: placed.toISOString(),
    items: [
      {
        type: 'product',
        name: line.name,
        description: null,
        quantity: `${quantity}.00`,
        unit: 'stuk',
        unit_price: line.unit_price,
        discount_percentage: '0.00',
        discount_amount: '0.00',
        line_total: amount(lineTotal),
        is_taxable: true,
        tax_rate: line.tax_rate,
      },
    ],
  };
}

export async function addDemoOrders(tx: Tx, companyId: string, now: Date): Promise<void> {
  for (const [i, status] of STATUSES.entries()) await importOrder(tx, companyId, demoOrder(status, i, now));
}
