-- Secrets the service generates itself, one per installation, kept with its data so that every API node and
-- worker of the installation reads the same one. Not a tenant table: no company_id, no grant to app_api (the
-- tenant role can never read them); under Citus it is a reference table.
CREATE TABLE "installation_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
REVOKE ALL ON "installation_secrets" FROM PUBLIC;
