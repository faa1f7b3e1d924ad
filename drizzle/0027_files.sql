-- Stored files (quote attachments, work-order photos): the facts of each file and its bytes in chunks of at most
-- 256 KiB, written and read a chunk at a time (src/files/storage.ts); and the attachments of quotes. Tenant tables.
CREATE TABLE "file_chunks" (
	"company_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_company_id_file_id_seq_pk" PRIMARY KEY("company_id","file_id","seq")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"storage" text DEFAULT 'postgres' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "files_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "quote_attachments" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"quote_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"description" text,
	"visible_to_customer" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "quote_attachments_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_company_id_file_id_files_company_id_id_fk" FOREIGN KEY ("company_id","file_id") REFERENCES "public"."files"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_attachments" ADD CONSTRAINT "quote_attachments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_attachments" ADD CONSTRAINT "quote_attachments_company_id_quote_id_quotes_company_id_id_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_attachments" ADD CONSTRAINT "quote_attachments_company_id_file_id_files_company_id_id_fk" FOREIGN KEY ("company_id","file_id") REFERENCES "public"."files"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_attachments_list" ON "quote_attachments" USING btree ("company_id","quote_id","created_at","id");
--> statement-breakpoint
-- Files are mostly compressed already (PDF, JPEG, PNG, Office zips): stored out of line without another try.
ALTER TABLE "file_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql).
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['files', 'file_chunks', 'quote_attachments']::regclass[]) AS t;
