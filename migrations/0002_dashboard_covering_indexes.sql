DROP INDEX `invoices_user_issue_idx`;--> statement-breakpoint
CREATE INDEX `invoices_user_issue_totals_idx` ON `invoices` (`user_id`,`issue_date`,`status`,`currency`,`total`);--> statement-breakpoint
CREATE INDEX `invoices_user_open_due_idx` ON `invoices` (`user_id`,`status`,`currency`,`due_date`,`total`,`amount_paid`);--> statement-breakpoint
DROP INDEX `expenses_user_incurred_idx`;--> statement-breakpoint
CREATE INDEX `expenses_user_incurred_idx` ON `expenses` (`user_id`,`incurred_on`,`currency`,`amount`);--> statement-breakpoint
DROP INDEX `payments_user_paid_on_idx`;--> statement-breakpoint
CREATE INDEX `payments_user_paid_on_idx` ON `payments` (`user_id`,`paid_on`,`currency`,`amount`);