-- Invoice reminders (issue 52, points 6 and 7). The company's schedule is a short list on the company (0–5 steps of
-- `{days_after_due, kind}`, checked by the API and the CLI; empty = no reminders, the default: a company starts
-- emailing its customers only when it chooses to). An invoice may opt out with `reminders_enabled`.
ALTER TABLE "companies" ADD COLUMN "invoice_reminder_steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
  ADD CONSTRAINT "companies_invoice_reminder_steps" CHECK (jsonb_typeof("invoice_reminder_steps") = 'array');
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "reminders_enabled" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- One row per invoice and step, made by the daily job (`scheduled`), then `sent` when its email is written to the
-- outbox, or `skipped` when the invoice was paid, cancelled, refunded or opted out by then. The unique step makes a
-- second or concurrent run of the job a no-op.
CREATE TABLE "invoice_reminders" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"days_after_due" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"email_id" text COLLATE "C",
	"skipped_reason" text,
	"scheduled_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"skipped_at" timestamp (3) with time zone,
	CONSTRAINT "invoice_reminders_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "invoice_reminders_kind" CHECK ("kind" IN ('friendly', 'second', 'final')),
	CONSTRAINT "invoice_reminders_status" CHECK ("status" IN ('scheduled', 'sent', 'skipped')),
	CONSTRAINT "invoice_reminders_days" CHECK ("days_after_due" BETWEEN 1 AND 365),
	CONSTRAINT "invoice_reminders_skipped_reason" CHECK ("skipped_reason" IN ('paid', 'cancelled', 'refunded', 'opted_out', 'no_email'))
);
--> statement-breakpoint
ALTER TABLE "invoice_reminders" ADD CONSTRAINT "invoice_reminders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoice_reminders" ADD CONSTRAINT "invoice_reminders_invoice_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reminders_step" ON "invoice_reminders" USING btree ("company_id","invoice_id","days_after_due");
--> statement-breakpoint
-- The reminder run looks only at overdue invoices that have not opted out.
CREATE INDEX "invoices_overdue_reminders" ON "invoices" USING btree ("company_id","due_date") WHERE "status" = 'overdue' AND "reminders_enabled";
--> statement-breakpoint
SELECT app_enable_tenancy('invoice_reminders');
--> statement-breakpoint
-- An outbox email its cause no longer wants when it is sent is `withheld` (a reminder of an invoice paid while the
-- mail server could not be reached).
ALTER TABLE "outbound_emails" DROP CONSTRAINT "outbound_emails_status",
  ADD CONSTRAINT "outbound_emails_status" CHECK ("status" IN ('queued', 'sent', 'recorded', 'failed', 'withheld'));
