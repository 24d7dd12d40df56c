CREATE TABLE `exports` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`kinds` text NOT NULL,
	`origin` text NOT NULL,
	`file_key` text,
	`size` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` text,
	`failure_reason` text,
	`completed_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `exports_workspace_idx` ON `exports` (`workspace_id`,`id`);--> statement-breakpoint
CREATE TABLE `exchange_rates` (
	`currency` text NOT NULL,
	`day` text NOT NULL,
	`rate` real NOT NULL,
	`as_of` text NOT NULL,
	PRIMARY KEY(`currency`, `day`)
);
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `accounting` text;--> statement-breakpoint
CREATE INDEX `expenses_workspace_incurred_net_idx` ON `expenses` (`workspace_id`,`incurred_on`,`currency`,`project_id`,`amount`,`net_amount`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_issue_net_idx` ON `invoices` (`workspace_id`,`issue_date`,`currency`,`project_id`,`status`,`subtotal`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_status_settled_idx` ON `invoices` (`workspace_id`,`status`,`paid_at`,`voided_at`);--> statement-breakpoint
CREATE INDEX `payments_workspace_paid_on_net_idx` ON `payments` (`workspace_id`,`paid_on`,`currency`,`amount`,`tax`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `refunds_invoice_idx` ON `refunds` (`invoice_id`,`refunded_on`);