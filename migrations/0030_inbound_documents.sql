CREATE TABLE `inbound_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`received_at` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`file_key` text NOT NULL,
	`format` text,
	`profile` text,
	`validation` text,
	`extracted` text,
	`extraction` text,
	`confidence` real,
	`supplier_key` text,
	`number` text,
	`duplicate_of` text,
	`expense_id` text,
	`rejected_reason` text,
	`failure_reason` text,
	`from_address` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inbound_documents_workspace_idx` ON `inbound_documents` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_documents_workspace_received_idx` ON `inbound_documents` (`workspace_id`,`received_at`);--> statement-breakpoint
CREATE INDEX `inbound_documents_workspace_sha_idx` ON `inbound_documents` (`workspace_id`,`sha256`);--> statement-breakpoint
CREATE INDEX `inbound_documents_workspace_supplier_idx` ON `inbound_documents` (`workspace_id`,`supplier_key`,`number`);--> statement-breakpoint
CREATE INDEX `inbound_documents_expense_idx` ON `inbound_documents` (`expense_id`);--> statement-breakpoint
ALTER TABLE `expenses` ADD `supplier` text;--> statement-breakpoint
ALTER TABLE `expenses` ADD `reference` text;--> statement-breakpoint
ALTER TABLE `expenses` ADD `net_amount` integer;--> statement-breakpoint
ALTER TABLE `expenses` ADD `tax_amount` integer;--> statement-breakpoint
ALTER TABLE `expenses` ADD `tax_breakdown` text;--> statement-breakpoint
ALTER TABLE `expenses` ADD `due_date` text;--> statement-breakpoint
ALTER TABLE `expenses` ADD `document_id` text;--> statement-breakpoint
CREATE INDEX `expenses_document_idx` ON `expenses` (`document_id`);