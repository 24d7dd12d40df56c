CREATE TABLE `credit_note_line_items` (
	`id` text PRIMARY KEY NOT NULL,
	`credit_note_id` text NOT NULL,
	`invoice_line_item_id` text,
	`position` integer NOT NULL,
	`description` text NOT NULL,
	`quantity_milli` integer NOT NULL,
	`unit_amount` integer NOT NULL,
	`tax_rate_milli` integer DEFAULT 0 NOT NULL,
	`amount` integer NOT NULL,
	`tax` integer NOT NULL,
	`unit` text DEFAULT 'C62' NOT NULL,
	`discount_percent_milli` integer DEFAULT 0 NOT NULL,
	`discount_amount` integer DEFAULT 0 NOT NULL,
	`tax_category` text DEFAULT 'S' NOT NULL,
	FOREIGN KEY (`credit_note_id`) REFERENCES `credit_notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_note_lines_note_idx` ON `credit_note_line_items` (`credit_note_id`,`position`);--> statement-breakpoint
CREATE INDEX `credit_note_lines_invoice_line_idx` ON `credit_note_line_items` (`invoice_line_item_id`);--> statement-breakpoint
CREATE TABLE `credit_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`client_id` text NOT NULL,
	`number` text NOT NULL,
	`status` text DEFAULT 'issued' NOT NULL,
	`reason` text NOT NULL,
	`memo` text,
	`issue_date` text NOT NULL,
	`currency` text NOT NULL,
	`subtotal` integer NOT NULL,
	`discount_total` integer DEFAULT 0 NOT NULL,
	`tax` integer NOT NULL,
	`total` integer NOT NULL,
	`tax_rounding` text NOT NULL,
	`tax_breakdown` text NOT NULL,
	`pre_payment_amount` integer NOT NULL,
	`post_payment_amount` integer NOT NULL,
	`refund_id` text,
	`link_version` integer DEFAULT 1 NOT NULL,
	`link_hash` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "credit_notes_amounts_valid" CHECK("credit_notes"."total" > 0 AND "credit_notes"."pre_payment_amount" >= 0 AND "credit_notes"."post_payment_amount" >= 0 AND "credit_notes"."pre_payment_amount" + "credit_notes"."post_payment_amount" = "credit_notes"."total")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_workspace_number_uq` ON `credit_notes` (`workspace_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_link_hash_uq` ON `credit_notes` (`link_hash`);--> statement-breakpoint
CREATE INDEX `credit_notes_invoice_idx` ON `credit_notes` (`invoice_id`,`id`);--> statement-breakpoint
CREATE INDEX `credit_notes_workspace_issue_idx` ON `credit_notes` (`workspace_id`,`issue_date`,`currency`,`total`);--> statement-breakpoint
ALTER TABLE `email_deliveries` ADD `credit_note_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `credited_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `credit_note_ids` text;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `credit_note_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `credit_note_prefix` text DEFAULT 'CN-' NOT NULL;--> statement-breakpoint
-- §17: the dashboard's `invoiced` subtracts credit notes on their issue date: the monthly roll-up
-- takes each one off its month as it is written (credit notes are final: never updated or deleted).
CREATE TRIGGER `workspace_credit_note_monthly_after_insert` AFTER INSERT ON `credit_notes` BEGIN
  INSERT INTO workspace_invoice_monthly_totals (workspace_id, month, currency, invoiced) VALUES (new.workspace_id, substr(new.issue_date, 1, 7), new.currency, -new.total)
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
