CREATE TABLE `quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`number` text NOT NULL,
	`status` text NOT NULL,
	`client_id` text NOT NULL,
	`project_id` text,
	`currency` text NOT NULL,
	`issue_date` text NOT NULL,
	`valid_until` text NOT NULL,
	`line_items` text NOT NULL,
	`taxable_amount` integer NOT NULL,
	`discount` text,
	`discount_total` integer DEFAULT 0 NOT NULL,
	`tax` integer NOT NULL,
	`total` integer NOT NULL,
	`tax_rounding` text NOT NULL,
	`tax_breakdown` text,
	`tax_exemption_reason` text,
	`tax_exemption_code` text,
	`notes` text,
	`terms` text,
	`on_accept` text DEFAULT 'none' NOT NULL,
	`issuer` text,
	`bill_to` text,
	`locale` text,
	`link_version` integer,
	`link_hash` text,
	`link_origin` text,
	`viewed_at` text,
	`accepted` text,
	`declined` text,
	`invoice_id` text,
	`revision_of` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`email_to` text,
	`email_cc` text,
	`email_message` text,
	`email_status` text,
	`email_attempts` integer DEFAULT 0 NOT NULL,
	`email_error` text,
	`email_next_attempt_at` text,
	`email_lease_until` text,
	`email_sent_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "quotes_dates_ordered" CHECK("quotes"."valid_until" >= "quotes"."issue_date"),
	CONSTRAINT "quotes_amounts_valid" CHECK("quotes"."taxable_amount" >= 0 AND "quotes"."tax" >= 0 AND "quotes"."total" = "quotes"."taxable_amount" + "quotes"."tax")
);
--> statement-breakpoint
CREATE INDEX `quotes_email_due_idx` ON `quotes` (`email_status`,`email_next_attempt_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `quotes_workspace_number_uq` ON `quotes` (`workspace_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `quotes_link_hash_uq` ON `quotes` (`link_hash`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_idx` ON `quotes` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_workspace_status_idx` ON `quotes` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `quotes_expiry_idx` ON `quotes` (`status`,`valid_until`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `quote_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_quote_uq` ON `invoices` (`quote_id`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `quote_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `quote_prefix` text DEFAULT 'QUO-' NOT NULL;