CREATE TABLE `time_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text NOT NULL,
	`task` text,
	`notes` text,
	`spent_date` text NOT NULL,
	`started_at` text,
	`stopped_at` text,
	`duration_seconds` integer,
	`billable` integer DEFAULT true NOT NULL,
	`rate` integer,
	`currency` text NOT NULL,
	`invoice_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "time_entries_duration_bounds" CHECK("time_entries"."duration_seconds" IS NULL OR ("time_entries"."duration_seconds" BETWEEN 1 AND 86400)),
	CONSTRAINT "time_entries_rate_nonneg" CHECK("time_entries"."rate" IS NULL OR "time_entries"."rate" >= 0)
);
--> statement-breakpoint
CREATE INDEX `time_entries_workspace_idx` ON `time_entries` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_user_idx` ON `time_entries` (`workspace_id`,`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_project_idx` ON `time_entries` (`workspace_id`,`project_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_entries_workspace_spent_idx` ON `time_entries` (`workspace_id`,`spent_date`);--> statement-breakpoint
CREATE INDEX `time_entries_invoice_idx` ON `time_entries` (`invoice_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `time_entries_one_running_uq` ON `time_entries` (`workspace_id`,`user_id`) WHERE "time_entries"."duration_seconds" IS NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `time_rounding_minutes` integer;--> statement-breakpoint
ALTER TABLE `projects` ADD `time_rounding_mode` text;