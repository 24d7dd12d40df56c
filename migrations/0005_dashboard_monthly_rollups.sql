CREATE TABLE `expense_monthly_totals` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`spent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `currency`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `invoice_monthly_totals` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`invoiced` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `currency`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `payment_monthly_totals` (
	`user_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`collected` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `month`, `currency`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Backfill, then keep in step with triggers (same transaction as every change).
INSERT INTO `invoice_monthly_totals` (user_id, month, currency, invoiced)
  SELECT user_id, substr(issue_date, 1, 7), currency, sum(total) FROM invoices WHERE status IN ('open', 'paid') GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `payment_monthly_totals` (user_id, month, currency, collected)
  SELECT user_id, substr(paid_on, 1, 7), currency, sum(amount) FROM payments GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `expense_monthly_totals` (user_id, month, currency, spent)
  SELECT user_id, substr(incurred_on, 1, 7), currency, sum(amount) FROM expenses GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `invoice_monthly_after_insert` AFTER INSERT ON `invoices` WHEN new.status IN ('open', 'paid') BEGIN
  INSERT INTO invoice_monthly_totals (user_id, month, currency, invoiced) VALUES (new.user_id, substr(new.issue_date, 1, 7), new.currency, new.total)
    ON CONFLICT (user_id, month, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
--> statement-breakpoint
CREATE TRIGGER `invoice_monthly_after_delete` AFTER DELETE ON `invoices` WHEN old.status IN ('open', 'paid') BEGIN
  UPDATE invoice_monthly_totals SET invoiced = invoiced - old.total
    WHERE user_id = old.user_id AND month = substr(old.issue_date, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `invoice_monthly_after_update` AFTER UPDATE OF status, total, issue_date, currency ON `invoices` BEGIN
  UPDATE invoice_monthly_totals SET invoiced = invoiced - old.total
    WHERE old.status IN ('open', 'paid') AND user_id = old.user_id AND month = substr(old.issue_date, 1, 7) AND currency = old.currency;
  INSERT INTO invoice_monthly_totals (user_id, month, currency, invoiced)
    SELECT new.user_id, substr(new.issue_date, 1, 7), new.currency, new.total WHERE new.status IN ('open', 'paid')
    ON CONFLICT (user_id, month, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
--> statement-breakpoint
CREATE TRIGGER `payment_monthly_after_insert` AFTER INSERT ON `payments` BEGIN
  INSERT INTO payment_monthly_totals (user_id, month, currency, collected) VALUES (new.user_id, substr(new.paid_on, 1, 7), new.currency, new.amount)
    ON CONFLICT (user_id, month, currency) DO UPDATE SET collected = collected + excluded.collected;
END;
--> statement-breakpoint
CREATE TRIGGER `payment_monthly_after_delete` AFTER DELETE ON `payments` BEGIN
  UPDATE payment_monthly_totals SET collected = collected - old.amount
    WHERE user_id = old.user_id AND month = substr(old.paid_on, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `expense_monthly_after_insert` AFTER INSERT ON `expenses` BEGIN
  INSERT INTO expense_monthly_totals (user_id, month, currency, spent) VALUES (new.user_id, substr(new.incurred_on, 1, 7), new.currency, new.amount)
    ON CONFLICT (user_id, month, currency) DO UPDATE SET spent = spent + excluded.spent;
END;
--> statement-breakpoint
CREATE TRIGGER `expense_monthly_after_delete` AFTER DELETE ON `expenses` BEGIN
  UPDATE expense_monthly_totals SET spent = spent - old.amount
    WHERE user_id = old.user_id AND month = substr(old.incurred_on, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `expense_monthly_after_update` AFTER UPDATE OF amount, currency, incurred_on ON `expenses` BEGIN
  UPDATE expense_monthly_totals SET spent = spent - old.amount
    WHERE user_id = old.user_id AND month = substr(old.incurred_on, 1, 7) AND currency = old.currency;
  INSERT INTO expense_monthly_totals (user_id, month, currency, spent) VALUES (new.user_id, substr(new.incurred_on, 1, 7), new.currency, new.amount)
    ON CONFLICT (user_id, month, currency) DO UPDATE SET spent = spent + excluded.spent;
END;
