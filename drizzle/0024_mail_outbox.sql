-- The email outbox: an email is queued in the transaction of the change that causes it and sent by the
-- email_send job (SMTP, or recorded when SMTP_URL is not set); attachments travel with it; outgoing messages
-- are counted per company and hour for the anti-abuse limits (src/mail/).
CREATE TABLE "outbound_email_attachments" (
	"company_id" uuid NOT NULL,
	"email_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "outbound_email_attachments_company_id_email_id_position_pk" PRIMARY KEY("company_id","email_id","position")
);
--> statement-breakpoint
CREATE TABLE "outgoing_message_counts" (
	"company_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"hour_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "outgoing_message_counts_company_id_scope_hour_start_pk" PRIMARY KEY("company_id","scope","hour_start")
);
--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "status" text DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "sent_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "outbound_email_attachments" ADD CONSTRAINT "outbound_email_attachments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_email_attachments" ADD CONSTRAINT "outbound_email_attachments_company_id_email_id_outbound_emails_company_id_id_fk" FOREIGN KEY ("company_id","email_id") REFERENCES "public"."outbound_emails"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outgoing_message_counts" ADD CONSTRAINT "outgoing_message_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Emails written before the outbox existed were kept, never sent: what the recording channel does now.
UPDATE "outbound_emails" SET "status" = 'recorded';--> statement-breakpoint
ALTER TABLE "outbound_emails" ADD CONSTRAINT "outbound_emails_status" CHECK ("status" IN ('queued', 'sent', 'recorded', 'failed'));--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql).
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['outbound_email_attachments', 'outgoing_message_counts']::regclass[]) AS t;
