CREATE TABLE `mcp_proposals` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`key_id` text NOT NULL,
	`tool` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body` text,
	`summary` text NOT NULL,
	`status` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`decided_at` text,
	`result_status` integer,
	`result_body` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_proposals_workspace_idx` ON `mcp_proposals` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `mcp_proposals_pending_idx` ON `mcp_proposals` (`status`,`expires_at`);