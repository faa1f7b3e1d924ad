-- Secrets the service generates itself, one per installation, kept with its data so that every API node and
-- worker of the installation reads the same one. Not a tenant table: no company_id, no grant to app_api (the
-- tenant role can never read them); under Citus it is a reference table.
CREATE TABLE "installation_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
REVOKE ALL ON "installation_secrets" FROM PUBLIC;
--> statement-breakpoint
-- Customers' phone numbers also in E.164 (src/domain/phone.ts), what inbound WhatsApp senders are matched on:
-- whole international numbers only. Filled by the service on every write; the rows written before this migration
-- are filled by the backfill that runs after the migrations (src/db/phone-backfill.ts).
ALTER TABLE "customers" ADD COLUMN "phone_e164" text;--> statement-breakpoint
CREATE INDEX "customers_phone_e164" ON "customers" USING btree ("company_id","phone_e164") WHERE "phone_e164" IS NOT NULL;
--> statement-breakpoint
-- The email address a chat visitor typed: kept on the conversation as given and unverified, never used to
-- attach the conversation to a customer (the visitor becomes a lead of their own).
ALTER TABLE "conversations" ADD COLUMN "visitor_email" text;
