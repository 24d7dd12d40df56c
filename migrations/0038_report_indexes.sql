CREATE INDEX `expenses_workspace_incurred_net_idx` ON `expenses` (`workspace_id`,`incurred_on`,`currency`,`project_id`,`amount`,`net_amount`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_issue_net_idx` ON `invoices` (`workspace_id`,`issue_date`,`currency`,`project_id`,`status`,`subtotal`);--> statement-breakpoint
CREATE INDEX `invoices_workspace_status_settled_idx` ON `invoices` (`workspace_id`,`status`,`paid_at`,`voided_at`);--> statement-breakpoint
CREATE INDEX `payments_workspace_paid_on_net_idx` ON `payments` (`workspace_id`,`paid_on`,`currency`,`amount`,`tax`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `refunds_invoice_idx` ON `refunds` (`invoice_id`,`refunded_on`);