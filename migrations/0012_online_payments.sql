CREATE TABLE `payment_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`checkout_url` text,
	`provider_checkout_id` text,
	`failure_message` text,
	`expires_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payment_attempts_amount_positive" CHECK("payment_attempts"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX `payment_attempts_invoice_idx` ON `payment_attempts` (`invoice_id`,`id`);--> statement-breakpoint
CREATE TABLE `payment_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`provider` text NOT NULL,
	`secret_key_sealed` text,
	`webhook_secret_sealed` text NOT NULL,
	`key_last4` text,
	`test_mode` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_providers_workspace_uq` ON `payment_providers` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`invoice_id` text NOT NULL,
	`payment_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`provider_refund_id` text,
	`reason` text,
	`refunded_on` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "refunds_amount_positive" CHECK("refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE INDEX `refunds_payment_idx` ON `refunds` (`payment_id`,`id`);--> statement-breakpoint
CREATE INDEX `refunds_workspace_refunded_on_idx` ON `refunds` (`workspace_id`,`refunded_on`,`currency`,`amount`);--> statement-breakpoint
ALTER TABLE `email_deliveries` ADD `payment_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `overpaid_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `source` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_payment_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_payment_uq` ON `payments` (`provider_payment_id`);--> statement-breakpoint
ALTER TABLE `workspaces` ADD `payments_allow_partial` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Refunds count against `collected` on the day they were made (§16), in the payments' roll-up; one
-- that fails gives it back.
CREATE TRIGGER `workspace_refund_monthly_after_insert` AFTER INSERT ON `refunds` WHEN new.status != 'failed' BEGIN
  INSERT INTO workspace_payment_monthly_totals (workspace_id, month, currency, collected) VALUES (new.workspace_id, substr(new.refunded_on, 1, 7), new.currency, -new.amount)
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET collected = collected + excluded.collected;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_refund_monthly_after_fail` AFTER UPDATE OF status ON `refunds` WHEN old.status != 'failed' AND new.status = 'failed' BEGIN
  UPDATE workspace_payment_monthly_totals SET collected = collected + old.amount
    WHERE workspace_id = old.workspace_id AND month = substr(old.refunded_on, 1, 7) AND currency = old.currency;
END;
