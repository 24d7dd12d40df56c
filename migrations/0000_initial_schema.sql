CREATE TABLE `activities` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`subject_id` text NOT NULL,
	`summary` text NOT NULL,
	`occurred_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `activities_user_idx` ON `activities` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `clients` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`company` text,
	`phone` text,
	`address_line1` text,
	`address_line2` text,
	`address_city` text,
	`address_region` text,
	`address_postal_code` text,
	`address_country` text,
	`currency` text DEFAULT 'USD' NOT NULL,
	`tax_id` text,
	`notes` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `clients_user_idx` ON `clients` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `clients_user_status_idx` ON `clients` (`user_id`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `expenses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text,
	`category` text NOT NULL,
	`description` text,
	`vendor` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`incurred_on` text NOT NULL,
	`billable` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "expenses_amount_positive" CHECK("expenses"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX `expenses_user_idx` ON `expenses` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `expenses_user_incurred_idx` ON `expenses` (`user_id`,`incurred_on`);--> statement-breakpoint
CREATE INDEX `expenses_user_project_idx` ON `expenses` (`user_id`,`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `gigs` (
	`rowid` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`poster_name` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`skills` text DEFAULT '[]' NOT NULL,
	`budget_type` text NOT NULL,
	`budget_min` integer NOT NULL,
	`budget_max` integer NOT NULL,
	`currency` text NOT NULL,
	`remote` integer DEFAULT true NOT NULL,
	`location` text,
	`status` text DEFAULT 'open' NOT NULL,
	`expires_on` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "gigs_budget_ordered" CHECK("gigs"."budget_min" >= 0 AND "gigs"."budget_min" <= "gigs"."budget_max")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gigs_id_unique` ON `gigs` (`id`);--> statement-breakpoint
CREATE INDEX `gigs_status_idx` ON `gigs` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_user_idx` ON `gigs` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`accepted_at` text,
	`accepted_by` text,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_code_hash_unique` ON `invitations` (`code_hash`);--> statement-breakpoint
CREATE TABLE `invoice_line_items` (
	`id` text PRIMARY KEY NOT NULL,
	`invoice_id` text NOT NULL,
	`position` integer NOT NULL,
	`description` text NOT NULL,
	`quantity_milli` integer NOT NULL,
	`unit_amount` integer NOT NULL,
	`tax_rate_milli` integer DEFAULT 0 NOT NULL,
	`amount` integer NOT NULL,
	`tax` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `line_items_invoice_idx` ON `invoice_line_items` (`invoice_id`,`position`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`number` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`client_id` text NOT NULL,
	`project_id` text,
	`currency` text NOT NULL,
	`issue_date` text NOT NULL,
	`due_date` text NOT NULL,
	`subtotal` integer NOT NULL,
	`tax` integer NOT NULL,
	`total` integer NOT NULL,
	`amount_paid` integer DEFAULT 0 NOT NULL,
	`notes` text,
	`sent_at` text,
	`paid_at` text,
	`voided_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "invoices_amounts_valid" CHECK("invoices"."subtotal" >= 0 AND "invoices"."tax" >= 0 AND "invoices"."total" = "invoices"."subtotal" + "invoices"."tax"),
	CONSTRAINT "invoices_paid_within_total" CHECK("invoices"."amount_paid" >= 0 AND "invoices"."amount_paid" <= "invoices"."total"),
	CONSTRAINT "invoices_dates_ordered" CHECK("invoices"."due_date" >= "invoices"."issue_date")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_user_number_uq` ON `invoices` (`user_id`,`number`);--> statement-breakpoint
CREATE INDEX `invoices_user_idx` ON `invoices` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_user_status_idx` ON `invoices` (`user_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_user_status_due_idx` ON `invoices` (`user_id`,`status`,`due_date`);--> statement-breakpoint
CREATE INDEX `invoices_user_issue_idx` ON `invoices` (`user_id`,`issue_date`);--> statement-breakpoint
CREATE INDEX `invoices_user_client_idx` ON `invoices` (`user_id`,`client_id`,`id`);--> statement-breakpoint
CREATE INDEX `invoices_user_project_idx` ON `invoices` (`user_id`,`project_id`,`id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`paid_on` text NOT NULL,
	`method` text,
	`reference` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payments_amount_positive" CHECK("payments"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX `payments_user_paid_on_idx` ON `payments` (`user_id`,`paid_on`);--> statement-breakpoint
CREATE INDEX `payments_invoice_idx` ON `payments` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`client_id` text,
	`name` text NOT NULL,
	`description` text,
	`status` text DEFAULT 'active' NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`budget` integer,
	`hourly_rate` integer,
	`start_date` text,
	`due_date` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "projects_budget_nonneg" CHECK("projects"."budget" IS NULL OR "projects"."budget" >= 0),
	CONSTRAINT "projects_rate_nonneg" CHECK("projects"."hourly_rate" IS NULL OR "projects"."hourly_rate" >= 0)
);
--> statement-breakpoint
CREATE INDEX `projects_user_idx` ON `projects` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `projects_user_status_idx` ON `projects` (`user_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `projects_user_client_idx` ON `projects` (`user_id`,`client_id`,`id`);--> statement-breakpoint
CREATE TABLE `suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`task` text NOT NULL,
	`project_id` text,
	`status` text NOT NULL,
	`provider` text,
	`suggestions` text,
	`error` text,
	`created_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `suggestions_user_idx` ON `suggestions` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`source_currency` text NOT NULL,
	`source_amount` integer NOT NULL,
	`fee` integer NOT NULL,
	`target_currency` text NOT NULL,
	`target_amount` integer NOT NULL,
	`rate` text NOT NULL,
	`rate_as_of` text NOT NULL,
	`recipient` text NOT NULL,
	`reference` text,
	`failure_reason` text,
	`status_history` text NOT NULL,
	`payout_id` text,
	`enqueued_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "transfers_amounts_valid" CHECK("transfers"."source_amount" > 0 AND "transfers"."fee" >= 0 AND "transfers"."target_amount" >= 0)
);
--> statement-breakpoint
CREATE INDEX `transfers_user_idx` ON `transfers` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `transfers_status_updated_idx` ON `transfers` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`invoice_seq` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `waitlist` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`company` text,
	`note` text,
	`status` text DEFAULT 'waiting' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_email_unique` ON `waitlist` (`email`);--> statement-breakpoint
CREATE INDEX `waitlist_status_idx` ON `waitlist` (`status`,`id`);