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
CREATE INDEX `exports_workspace_idx` ON `exports` (`workspace_id`,`id`);