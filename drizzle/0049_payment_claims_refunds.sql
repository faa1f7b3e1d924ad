-- Online payments, the rest of issue 52.
-- 1. "Pay now" claims the invoice's payment with a short transaction before it calls the provider (outside any
--    transaction): a `creating` row without a provider id holds the place of the one open payment per invoice and
--    amount; its expires_at is the claim's end, after which another click may take it over (a crash between the
--    steps blocks nothing for long).
ALTER TABLE "provider_payments" ALTER COLUMN "provider_payment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_payments" DROP CONSTRAINT "provider_payments_status";--> statement-breakpoint
ALTER TABLE "provider_payments" ADD CONSTRAINT "provider_payments_status" CHECK ("status" IN ('creating', 'open', 'pending', 'authorized', 'paid', 'failed', 'expired', 'canceled'));--> statement-breakpoint
ALTER TABLE "provider_payments" ADD CONSTRAINT "provider_payments_created" CHECK (("status" = 'creating') = ("provider_payment_id" IS NULL));--> statement-breakpoint
DROP INDEX "provider_payments_open";--> statement-breakpoint
CREATE UNIQUE INDEX "provider_payments_open" ON "provider_payments" USING btree ("company_id","invoice_id","amount") WHERE "status" IN ('creating', 'open');--> statement-breakpoint
-- 2. A refund recorded through the API on a payment that came through the provider is sent to the provider by a
--    job (invoice_refund_send): the payment it pays back, the provider's refund id and status, and why it failed.
ALTER TABLE "invoice_payments" ADD COLUMN "refunded_payment_id" uuid;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "provider_refund_status" text;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_refunded_payment_fk" FOREIGN KEY ("company_id","refunded_payment_id") REFERENCES "public"."invoice_payments"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_provider_refund_status" CHECK ("provider_refund_status" IN ('queued', 'pending', 'refunded', 'failed'));--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_provider_refund" ON "invoice_payments" USING btree ("company_id","provider","provider_refund_id") WHERE "provider_refund_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoice_payments_refunded_payment" ON "invoice_payments" USING btree ("company_id","refunded_payment_id") WHERE "refunded_payment_id" IS NOT NULL;
