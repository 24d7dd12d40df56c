ALTER TABLE `invitations` ADD `email_status` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `email_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `email_error` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `email_next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `email_lease_until` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `accept_key_hash` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `accept_request_hash` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `accepted_key_id` text;--> statement-breakpoint
CREATE INDEX `invitations_inviter_idx` ON `invitations` (`invited_by`);--> statement-breakpoint
CREATE INDEX `invitations_email_due_idx` ON `invitations` (`email_status`,`email_next_attempt_at`);