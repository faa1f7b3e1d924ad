ALTER TABLE "channel_settings" ADD COLUMN "whatsapp_review_template" text;--> statement-breakpoint
ALTER TABLE "channel_settings" ADD COLUMN "whatsapp_review_template_languages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "review_requests" ADD COLUMN "whatsapp_message_id" text;