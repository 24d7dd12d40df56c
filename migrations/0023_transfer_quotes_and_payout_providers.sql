CREATE TABLE `payout_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider` text NOT NULL,
	`api_token_sealed` text,
	`profile_id` text,
	`token_last4` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_providers_workspace_uq` ON `payout_providers` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `transfer_quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`source_currency` text NOT NULL,
	`source_amount` integer NOT NULL,
	`fee` integer NOT NULL,
	`target_currency` text NOT NULL,
	`target_amount` integer NOT NULL,
	`rate` text NOT NULL,
	`rate_as_of` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_by` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `transfer_quotes_workspace_idx` ON `transfer_quotes` (`workspace_id`,`id`);--> statement-breakpoint
ALTER TABLE `transfers` ADD `quote_id` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `account_sealed` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `provider` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `provider_transfer_id` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `provider_status` text;--> statement-breakpoint
CREATE INDEX `transfers_provider_transfer_idx` ON `transfers` (`provider`,`provider_transfer_id`);