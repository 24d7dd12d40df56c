CREATE TABLE `invoice_status_counts` (
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `status`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Kept in step with invoices by triggers, in the same transaction as every change.
INSERT INTO `invoice_status_counts` (user_id, status, count) SELECT user_id, status, count(*) FROM invoices GROUP BY user_id, status;
--> statement-breakpoint
CREATE TRIGGER `invoice_status_counts_after_insert` AFTER INSERT ON `invoices` BEGIN
  INSERT INTO invoice_status_counts (user_id, status, count) VALUES (new.user_id, new.status, 1)
    ON CONFLICT (user_id, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `invoice_status_counts_after_delete` AFTER DELETE ON `invoices` BEGIN
  UPDATE invoice_status_counts SET count = count - 1 WHERE user_id = old.user_id AND status = old.status;
END;
--> statement-breakpoint
CREATE TRIGGER `invoice_status_counts_after_status_change` AFTER UPDATE OF status ON `invoices` WHEN old.status != new.status BEGIN
  UPDATE invoice_status_counts SET count = count - 1 WHERE user_id = old.user_id AND status = old.status;
  INSERT INTO invoice_status_counts (user_id, status, count) VALUES (new.user_id, new.status, 1)
    ON CONFLICT (user_id, status) DO UPDATE SET count = count + 1;
END;
