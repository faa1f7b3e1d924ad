-- Tasks (issue 25): tasks on the existing task_boards/task_statuses, their links, comments (system lines
-- included) and checklists. The boards get one default per company (concurrent first reads of GET /task-boards
-- create one board) and a list order with the default first; the columns one default per category and board
-- (where complete, reopen and cancel put a task).
CREATE TABLE "task_checklist_items" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"text" text NOT NULL,
	"is_done" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "task_checklist_items_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_comments" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"body" text NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"author_user_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "task_comments_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_links" (
	"company_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"object" text NOT NULL,
	"target_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "task_links_company_id_task_id_object_target_id_pk" PRIMARY KEY("company_id","task_id","object","target_id")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"board_id" uuid NOT NULL,
	"status_id" uuid NOT NULL,
	"status" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"priority" text DEFAULT 'normal' NOT NULL,
	"due_date" date,
	"assigned_user_id" bigint,
	"created_by_user_id" bigint,
	"position" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "tasks_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "tasks_completed_at" CHECK (("tasks"."status" = 'completed') = ("tasks"."completed_at" is not null)),
	CONSTRAINT "tasks_cancelled_at" CHECK (("tasks"."status" = 'cancelled') = ("tasks"."cancelled_at" is not null))
);
--> statement-breakpoint
-- Before the foreign key of tasks that refers to it.
CREATE UNIQUE INDEX "task_statuses_board_id" ON "task_statuses" USING btree ("company_id","board_id","id");--> statement-breakpoint
ALTER TABLE "task_boards" ADD COLUMN "list_order" integer GENERATED ALWAYS AS (case when is_default then -1 else position end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "task_checklist_items" ADD CONSTRAINT "task_checklist_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_checklist_items" ADD CONSTRAINT "task_checklist_items_company_id_task_id_tasks_company_id_id_fk" FOREIGN KEY ("company_id","task_id") REFERENCES "public"."tasks"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_company_id_task_id_tasks_company_id_id_fk" FOREIGN KEY ("company_id","task_id") REFERENCES "public"."tasks"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_company_id_author_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","author_user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_links" ADD CONSTRAINT "task_links_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_links" ADD CONSTRAINT "task_links_company_id_task_id_tasks_company_id_id_fk" FOREIGN KEY ("company_id","task_id") REFERENCES "public"."tasks"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_company_id_board_id_status_id_task_statuses_company_id_board_id_id_fk" FOREIGN KEY ("company_id","board_id","status_id") REFERENCES "public"."task_statuses"("company_id","board_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_company_id_assigned_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","assigned_user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_company_id_created_by_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","created_by_user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_checklist_items_open" ON "task_checklist_items" USING btree ("company_id","task_id") WHERE not "task_checklist_items"."is_done";--> statement-breakpoint
CREATE INDEX "task_comments_task" ON "task_comments" USING btree ("company_id","task_id","created_at","id");--> statement-breakpoint
CREATE INDEX "task_links_target" ON "task_links" USING btree ("company_id","object","target_id");--> statement-breakpoint
CREATE INDEX "tasks_created" ON "tasks" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_updated" ON "tasks" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "tasks_status_id" ON "tasks" USING btree ("company_id","status_id");--> statement-breakpoint
CREATE INDEX "tasks_assigned_user" ON "tasks" USING btree ("company_id","assigned_user_id");--> statement-breakpoint
CREATE INDEX "task_boards_list_order" ON "task_boards" USING btree ("company_id","list_order","id");--> statement-breakpoint
CREATE UNIQUE INDEX "task_boards_one_default" ON "task_boards" USING btree ("company_id") WHERE "task_boards"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "task_statuses_one_default" ON "task_statuses" USING btree ("company_id","board_id","category") WHERE "task_statuses"."is_default";--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql).
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['tasks', 'task_links', 'task_comments', 'task_checklist_items']::regclass[]) AS t;
