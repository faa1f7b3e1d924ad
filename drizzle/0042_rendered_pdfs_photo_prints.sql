-- Rendered PDFs kept per document (issue 46, point 3): the last PDF of each document and variant (`pdf`, `facturx`),
-- under the content key it was rendered from (src/pdf/rendered-pdfs.ts: a hash of everything printed and of the
-- rendering code). A download whose key matches answers the stored bytes instead of rendering again; a changed
-- document, company detail or rendering code gives another key, and the next render replaces the row. In
-- PostgreSQL, so every API node agrees; rows rendered over a week ago are purged hourly (purge_rendered_pdfs), so a
-- document still downloaded is rendered again at most once a week and a deleted document's PDF goes within a week.
CREATE TABLE "rendered_pdfs" (
	"company_id" uuid NOT NULL REFERENCES "companies"("id"),
	"document_id" uuid NOT NULL,
	"variant" text NOT NULL,
	"content_key" text NOT NULL,
	"pdf" bytea NOT NULL,
	"size" integer NOT NULL,
	"rendered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rendered_pdfs_pkey" PRIMARY KEY ("company_id", "document_id", "variant"),
	CONSTRAINT "rendered_pdfs_variant" CHECK ("variant" IN ('pdf', 'facturx'))
);--> statement-breakpoint
CREATE INDEX "rendered_pdfs_rendered" ON "rendered_pdfs" USING btree ("rendered_at");--> statement-breakpoint
SELECT app_enable_tenancy('rendered_pdfs');--> statement-breakpoint
CREATE POLICY retention ON rendered_pdfs FOR SELECT TO app_maintenance USING (true);--> statement-breakpoint
CREATE POLICY retention_delete ON rendered_pdfs FOR DELETE TO app_maintenance USING (true);--> statement-breakpoint
GRANT SELECT, DELETE ON rendered_pdfs TO app_maintenance;--> statement-breakpoint
-- Work-order photos' print versions (issue 46, point 4), made once by the work_order_photo_print job queued with
-- the upload: `pending` until it ran, then `ready` (the reduced JPEG in work_order_photo_prints) or `failed` with
-- the problem's code. Photos of before this migration start `pending` and get their job here (when Graphile Worker's
-- schema exists: a new installation has no photos); the hourly sweep_photo_prints job queues any still pending.
ALTER TABLE "work_order_photos" ADD COLUMN "print_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "work_order_photos" ADD COLUMN "print_problem" text;--> statement-breakpoint
ALTER TABLE "work_order_photos" ADD CONSTRAINT "work_order_photos_print_status" CHECK ("print_status" IN ('pending', 'ready', 'failed'));--> statement-breakpoint
ALTER TABLE "work_order_photos" ADD CONSTRAINT "work_order_photos_print_problem" CHECK (("print_status" = 'failed') = ("print_problem" IS NOT NULL) AND "print_problem" IN ('too_many_pixels', 'too_slow', 'too_large', 'unreadable'));--> statement-breakpoint
CREATE INDEX "work_order_photos_print_pending" ON "work_order_photos" USING btree ("created_at") WHERE "print_status" = 'pending';--> statement-breakpoint
CREATE TABLE "work_order_photo_prints" (
	"company_id" uuid NOT NULL,
	"photo_id" uuid NOT NULL,
	"image" bytea NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_photo_prints_pkey" PRIMARY KEY ("company_id", "photo_id"),
	CONSTRAINT "work_order_photo_prints_photo" FOREIGN KEY ("company_id", "photo_id") REFERENCES "work_order_photos"("company_id", "id") ON DELETE CASCADE
);--> statement-breakpoint
SELECT app_enable_tenancy('work_order_photo_prints');
--> statement-breakpoint
DO $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NOT NULL THEN
    PERFORM graphile_worker.add_job('work_order_photo_print',
      json_build_object('companyId', p.company_id, 'photoId', p.id),
      job_key => 'work_order_photo_print:' || p.id, max_attempts => 5)
    FROM work_order_photos p;
  END IF;
END $$;
