-- The language of the last message sent to the customer about an appointment: later messages (a cancellation
-- with notify_customer) are written in it unless the request names another.
ALTER TABLE "appointments" ADD COLUMN "message_language" text;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_message_language" CHECK ("message_language" in ('nl', 'en', 'de', 'fr'));
