CREATE TABLE `email_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`kind` text NOT NULL,
	`to` text NOT NULL,
	`cc` text NOT NULL,
	`message` text,
	`link_origin` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`lease_until` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_deliveries_invoice_idx` ON `email_deliveries` (`invoice_id`,`id`);--> statement-breakpoint
CREATE INDEX `email_deliveries_due_idx` ON `email_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `issuer` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `bill_to` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `link_version` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `link_hash` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `viewed_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_link_hash_uq` ON `invoices` (`link_hash`);