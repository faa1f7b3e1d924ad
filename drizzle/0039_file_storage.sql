-- Files in S3-compatible object storage (src/files/s3-storage.ts): files.storage says where each file's bytes are,
-- so an installation part-way through `files migrate` serves every file from where it is. Only the storages the
-- service knows; and an index for the migration's walk over the files not yet in the target storage.
ALTER TABLE "files" ADD CONSTRAINT "files_storage_known" CHECK ("storage" IN ('postgres', 's3'));--> statement-breakpoint
CREATE INDEX "files_storage_idx" ON "files" USING btree ("storage", "company_id", "id");
