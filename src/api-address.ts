// Where the API lives under the service's public address (PUBLIC_URL), and the API addresses that objects
// carry. Below every layer: events carry such addresses too, and older events get them when they are read
// (src/events/upgrades.ts).

export const API_PREFIX = '/api/v1';

/** The API address of an invoice's UBL (GET /invoices/{invoice}/ubl) on the service at `serviceUrl` (PUBLIC_URL). */
export const ublUrlOf = (serviceUrl: string, invoiceId: string) =>
  `${serviceUrl}${API_PREFIX}/invoices/${invoiceId}/ubl`;

/**
 * Where a payment provider posts a company's payment changes (POST /payment-webhooks/{provider}/{token}): the token
 * names the company (src/payments/webhook-token.ts).
 */
export const paymentWebhookUrlOf = (serviceUrl: string, provider: string, webhookToken: string) =>
  `${serviceUrl}${API_PREFIX}/payment-webhooks/${provider}/${webhookToken}`;
