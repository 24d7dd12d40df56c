CREATE TABLE `proposal_emails` (
	`id` text PRIMARY KEY NOT NULL,
	`proposal_id` text NOT NULL,
	`kind` text NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`lease_until` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`proposal_id`) REFERENCES `proposals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `proposal_emails_due_idx` ON `proposal_emails` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `proposal_emails_proposal_idx` ON `proposal_emails` (`proposal_id`);--> statement-breakpoint
CREATE TABLE `proposals` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`message` text NOT NULL,
	`rate_type` text,
	`rate_amount` integer,
	`rate_currency` text,
	`estimate_milli_hours` integer,
	`available_from` text,
	`links` text DEFAULT '[]' NOT NULL,
	`from_workspace_name` text NOT NULL,
	`from_user_name` text NOT NULL,
	`from_business_name` text,
	`from_email` text,
	`decline_reason` text,
	`client_id` text,
	`project_id` text,
	`quote_id` text,
	`accepted_at` text,
	`records_pending` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "proposals_rate_whole" CHECK(("proposals"."rate_type" IS NULL) = ("proposals"."rate_amount" IS NULL) AND ("proposals"."rate_type" IS NULL) = ("proposals"."rate_currency" IS NULL)),
	CONSTRAINT "proposals_rate_nonneg" CHECK("proposals"."rate_amount" IS NULL OR "proposals"."rate_amount" >= 0)
);
--> statement-breakpoint
CREATE INDEX `proposals_workspace_idx` ON `proposals` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `proposals_workspace_created_idx` ON `proposals` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `proposals_gig_idx` ON `proposals` (`gig_id`,`status`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `proposals_live_uq` ON `proposals` (`gig_id`,`workspace_id`) WHERE "proposals"."status" = 'submitted';--> statement-breakpoint
CREATE INDEX `proposals_records_pending_idx` ON `proposals` (`accepted_at`) WHERE "proposals"."records_pending" = 1;