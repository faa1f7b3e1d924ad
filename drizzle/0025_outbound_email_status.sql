-- status (0024) replaces sent.
ALTER TABLE "outbound_emails" DROP COLUMN "sent";