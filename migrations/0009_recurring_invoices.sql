CREATE TABLE `recurring_invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`status` text NOT NULL,
	`client_id` text NOT NULL,
	`project_id` text,
	`currency` text NOT NULL,
	`line_items` text NOT NULL,
	`notes` text,
	`due_in_days` integer NOT NULL,
	`interval` text NOT NULL,
	`interval_count` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text,
	`max_occurrences` integer,
	`auto_send` integer NOT NULL,
	`time_zone` text NOT NULL,
	`next_period` integer NOT NULL,
	`next_issue_date` text,
	`next_issue_at` text,
	`invoices_created` integer NOT NULL,
	`last_invoice_id` text,
	`link_origin` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `recurring_invoices_workspace_idx` ON `recurring_invoices` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `recurring_invoices_due_idx` ON `recurring_invoices` (`status`,`next_issue_at`);--> statement-breakpoint
ALTER TABLE `email_deliveries` ADD `reminder_day` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `email_deliveries_reminder_uq` ON `email_deliveries` (`invoice_id`,`reminder_day`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `link_origin` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `recurring_invoice_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `recurring_period` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `overdue_notified_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_recurring_period_uq` ON `invoices` (`recurring_invoice_id`,`recurring_period`);--> statement-breakpoint
CREATE INDEX `invoices_overdue_watch_idx` ON `invoices` (`status`,`overdue_notified_at`,`due_date`);