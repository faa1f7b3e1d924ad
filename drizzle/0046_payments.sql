-- Getting paid online (issue 52): a company's payment provider (Mollie first) and the payments created there.
-- payment_providers holds the company's provider API key sealed with AES-256-GCM under a key of the installation
-- (src/payments/secret-box.ts; PAYMENT_KEYS_SECRET or a generated installation secret): the tenant role reads only
-- the sealed text, never a key, and `company export` leaves the table out (src/services/company-archive.ts).
-- Both are tenant tables with forced row-level security; the provider's webhook finds its company by the company id
-- carried in its per-company webhook token, then reads as that company (src/payments/webhook-token.ts).
CREATE TABLE "payment_providers" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"api_key_sealed" text NOT NULL,
	"api_key_mode" text NOT NULL,
	"api_base_url" text,
	"webhook_token" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "payment_providers_provider" CHECK ("provider" IN ('mollie')),
	CONSTRAINT "payment_providers_mode" CHECK ("api_key_mode" IN ('test', 'live'))
);--> statement-breakpoint
ALTER TABLE "payment_providers" ADD CONSTRAINT "payment_providers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- One row per payment created at the provider for an invoice; its status follows the provider's (fetched, never
-- taken from a webhook's body). At most one open payment per invoice and amount: a second "pay now" reuses it.
CREATE TABLE "provider_payments" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"checkout_url" text,
	"expires_at" timestamp (3) with time zone,
	"method" text,
	"paid_at" timestamp (3) with time zone,
	"invoice_payment_id" uuid,
	"not_applied_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "provider_payments_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "provider_payments_status" CHECK ("status" IN ('open', 'pending', 'authorized', 'paid', 'failed', 'expired', 'canceled')),
	CONSTRAINT "provider_payments_amount" CHECK ("amount" > 0)
);--> statement-breakpoint
ALTER TABLE "provider_payments" ADD CONSTRAINT "provider_payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_payments" ADD CONSTRAINT "provider_payments_invoice_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_payments_provider_id" ON "provider_payments" USING btree ("company_id","provider","provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_payments_open" ON "provider_payments" USING btree ("company_id","invoice_id","amount") WHERE "status" = 'open';--> statement-breakpoint
-- The invoice's payment a paid provider payment became: exactly once per provider payment id.
ALTER TABLE "invoice_payments" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_provider_payment" ON "invoice_payments" USING btree ("company_id","provider","provider_payment_id") WHERE "provider_payment_id" IS NOT NULL;--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql): row-level security forced, the company policy, the grants.
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['payment_providers', 'provider_payments']::regclass[]) AS t;
