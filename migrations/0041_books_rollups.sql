-- §22: the profit and loss report's daily sums, kept by triggers in the same transaction as every change
-- to the records they sum (src/db/schema/books.ts; reports/records.ts says which records count), and
-- the indexes its rate lookups seek. WITHOUT ROWID (added by hand: drizzle-kit has no word for it):
-- a report reads a range of the key, which holds the sums themselves.
CREATE TABLE `books_daily` (
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`invoiced` integer DEFAULT 0 NOT NULL,
	`credited` integer DEFAULT 0 NOT NULL,
	`received` integer DEFAULT 0 NOT NULL,
	`received_net` integer DEFAULT 0 NOT NULL,
	`refunded_net` integer DEFAULT 0 NOT NULL,
	`spent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `day`, `currency`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `books_fx_issue` (
	`workspace_id` text NOT NULL,
	`paid_month` text NOT NULL,
	`currency` text NOT NULL,
	`issue_day` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `paid_month`, `currency`, `issue_day`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `exchange_rates_lookup_idx` ON `exchange_rates` (`currency`,`day`,`rate`);--> statement-breakpoint
CREATE INDEX `exchange_rates_day_idx` ON `exchange_rates` (`day`);
--> statement-breakpoint
-- Backfill from the records, then keep in step.
INSERT INTO `books_daily` (workspace_id, day, currency, invoiced, credited, received, received_net, refunded_net, spent)
  SELECT workspace_id, day, currency, sum(invoiced), sum(credited), sum(received), sum(received_net), sum(refunded_net), sum(spent) FROM (
    SELECT workspace_id, issue_date AS day, currency, subtotal AS invoiced, 0 AS credited, 0 AS received, 0 AS received_net, 0 AS refunded_net, 0 AS spent
      FROM invoices WHERE status IN ('open', 'paid')
    UNION ALL SELECT workspace_id, issue_date, currency, 0, total - tax, 0, 0, 0, 0 FROM credit_notes
    UNION ALL SELECT workspace_id, paid_on, currency, 0, 0, amount, amount - coalesce(tax, 0), 0, 0 FROM payments
    UNION ALL SELECT workspace_id, refunded_on, currency, 0, 0, 0, 0, amount - coalesce(tax, 0), 0 FROM refunds WHERE status != 'failed'
    UNION ALL SELECT workspace_id, incurred_on, currency, 0, 0, 0, 0, 0, coalesce(net_amount, amount) FROM expenses
  ) GROUP BY workspace_id, day, currency;
--> statement-breakpoint
INSERT INTO `books_fx_issue` (workspace_id, paid_month, currency, issue_day, amount)
  SELECT p.workspace_id, substr(p.paid_on, 1, 7), p.currency, i.issue_date, sum(p.amount)
  FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER `books_invoice_after_insert` AFTER INSERT ON `invoices` WHEN new.status IN ('open', 'paid') BEGIN
  INSERT INTO books_daily (workspace_id, day, currency, invoiced) VALUES (new.workspace_id, new.issue_date, new.currency, new.subtotal)
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
--> statement-breakpoint
CREATE TRIGGER `books_invoice_after_delete` AFTER DELETE ON `invoices` WHEN old.status IN ('open', 'paid') BEGIN
  UPDATE books_daily SET invoiced = invoiced - old.subtotal WHERE workspace_id = old.workspace_id AND day = old.issue_date AND currency = old.currency;
END;
--> statement-breakpoint
-- Sending counts an invoice and voiding takes it back; open ↔ paid leaves it as it was (no write).
CREATE TRIGGER `books_invoice_after_update` AFTER UPDATE OF status, subtotal, issue_date, currency ON `invoices`
  WHEN (old.status IN ('open', 'paid')) != (new.status IN ('open', 'paid'))
    OR (new.status IN ('open', 'paid') AND (old.subtotal != new.subtotal OR old.issue_date != new.issue_date OR old.currency != new.currency)) BEGIN
  UPDATE books_daily SET invoiced = invoiced - old.subtotal
    WHERE old.status IN ('open', 'paid') AND workspace_id = old.workspace_id AND day = old.issue_date AND currency = old.currency;
  INSERT INTO books_daily (workspace_id, day, currency, invoiced)
    SELECT new.workspace_id, new.issue_date, new.currency, new.subtotal WHERE new.status IN ('open', 'paid')
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
--> statement-breakpoint
CREATE TRIGGER `books_credit_note_after_insert` AFTER INSERT ON `credit_notes` BEGIN
  INSERT INTO books_daily (workspace_id, day, currency, credited) VALUES (new.workspace_id, new.issue_date, new.currency, new.total - new.tax)
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET credited = credited + excluded.credited;
END;
--> statement-breakpoint
CREATE TRIGGER `books_credit_note_after_delete` AFTER DELETE ON `credit_notes` BEGIN
  UPDATE books_daily SET credited = credited - (old.total - old.tax) WHERE workspace_id = old.workspace_id AND day = old.issue_date AND currency = old.currency;
END;
--> statement-breakpoint
-- A payment's net share is its amount less its tax share, worked out as 0014's trigger fills a tax left
-- null: which trigger of an insert runs first is not fixed, so this one does not wait for that one.
CREATE TRIGGER `books_payment_after_insert` AFTER INSERT ON `payments` BEGIN
  INSERT INTO books_daily (workspace_id, day, currency, received, received_net)
    SELECT new.workspace_id, new.paid_on, new.currency, new.amount, new.amount - coalesce(new.tax, (
      SELECT CASE WHEN i.total > 0 THEN CAST((2 * new.amount * i.tax + i.total) / (2 * i.total) AS INTEGER) ELSE 0 END FROM invoices i WHERE i.id = new.invoice_id
    ), 0) WHERE true
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET received = received + excluded.received, received_net = received_net + excluded.received_net;
  INSERT INTO books_fx_issue (workspace_id, paid_month, currency, issue_day, amount)
    SELECT new.workspace_id, substr(new.paid_on, 1, 7), new.currency, i.issue_date, new.amount FROM invoices i WHERE i.id = new.invoice_id
    ON CONFLICT (workspace_id, paid_month, currency, issue_day) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER `books_payment_after_delete` AFTER DELETE ON `payments` BEGIN
  UPDATE books_daily SET received = received - old.amount, received_net = received_net - (old.amount - coalesce(old.tax, 0))
    WHERE workspace_id = old.workspace_id AND day = old.paid_on AND currency = old.currency;
  UPDATE books_fx_issue SET amount = amount - old.amount
    WHERE workspace_id = old.workspace_id AND paid_month = substr(old.paid_on, 1, 7) AND currency = old.currency
      AND issue_day = (SELECT issue_date FROM invoices WHERE id = old.invoice_id);
END;
--> statement-breakpoint
-- Filling in a tax left null changes nothing here: the insert counted that very share.
CREATE TRIGGER `books_payment_after_update` AFTER UPDATE OF amount, tax, paid_on, currency ON `payments`
  WHEN NOT (old.tax IS NULL AND new.tax IS NOT NULL AND old.amount = new.amount AND old.paid_on = new.paid_on AND old.currency = new.currency) BEGIN
  UPDATE books_daily SET received = received - old.amount, received_net = received_net - (old.amount - coalesce(old.tax, 0))
    WHERE workspace_id = old.workspace_id AND day = old.paid_on AND currency = old.currency;
  INSERT INTO books_daily (workspace_id, day, currency, received, received_net) VALUES (new.workspace_id, new.paid_on, new.currency, new.amount, new.amount - coalesce(new.tax, 0))
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET received = received + excluded.received, received_net = received_net + excluded.received_net;
  UPDATE books_fx_issue SET amount = amount - old.amount
    WHERE workspace_id = old.workspace_id AND paid_month = substr(old.paid_on, 1, 7) AND currency = old.currency
      AND issue_day = (SELECT issue_date FROM invoices WHERE id = old.invoice_id);
  INSERT INTO books_fx_issue (workspace_id, paid_month, currency, issue_day, amount)
    SELECT new.workspace_id, substr(new.paid_on, 1, 7), new.currency, i.issue_date, new.amount FROM invoices i WHERE i.id = new.invoice_id
    ON CONFLICT (workspace_id, paid_month, currency, issue_day) DO UPDATE SET amount = amount + excluded.amount;
END;
--> statement-breakpoint
CREATE TRIGGER `books_refund_after_insert` AFTER INSERT ON `refunds` WHEN new.status != 'failed' BEGIN
  INSERT INTO books_daily (workspace_id, day, currency, refunded_net) VALUES (new.workspace_id, new.refunded_on, new.currency, new.amount - coalesce(new.tax, 0))
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET refunded_net = refunded_net + excluded.refunded_net;
END;
--> statement-breakpoint
CREATE TRIGGER `books_refund_after_delete` AFTER DELETE ON `refunds` WHEN old.status != 'failed' BEGIN
  UPDATE books_daily SET refunded_net = refunded_net - (old.amount - coalesce(old.tax, 0))
    WHERE workspace_id = old.workspace_id AND day = old.refunded_on AND currency = old.currency;
END;
--> statement-breakpoint
-- A refund that fails gives its amount back; pending → succeeded leaves it as it was (no write).
CREATE TRIGGER `books_refund_after_update` AFTER UPDATE OF status, amount, tax, refunded_on, currency ON `refunds`
  WHEN (old.status != 'failed') != (new.status != 'failed')
    OR (new.status != 'failed' AND (old.amount != new.amount OR coalesce(old.tax, 0) != coalesce(new.tax, 0) OR old.refunded_on != new.refunded_on OR old.currency != new.currency)) BEGIN
  UPDATE books_daily SET refunded_net = refunded_net - (old.amount - coalesce(old.tax, 0))
    WHERE old.status != 'failed' AND workspace_id = old.workspace_id AND day = old.refunded_on AND currency = old.currency;
  INSERT INTO books_daily (workspace_id, day, currency, refunded_net)
    SELECT new.workspace_id, new.refunded_on, new.currency, new.amount - coalesce(new.tax, 0) WHERE new.status != 'failed'
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET refunded_net = refunded_net + excluded.refunded_net;
END;
--> statement-breakpoint
CREATE TRIGGER `books_expense_after_insert` AFTER INSERT ON `expenses` BEGIN
  INSERT INTO books_daily (workspace_id, day, currency, spent) VALUES (new.workspace_id, new.incurred_on, new.currency, coalesce(new.net_amount, new.amount))
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET spent = spent + excluded.spent;
END;
--> statement-breakpoint
CREATE TRIGGER `books_expense_after_delete` AFTER DELETE ON `expenses` BEGIN
  UPDATE books_daily SET spent = spent - coalesce(old.net_amount, old.amount) WHERE workspace_id = old.workspace_id AND day = old.incurred_on AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `books_expense_after_update` AFTER UPDATE OF amount, net_amount, incurred_on, currency ON `expenses` BEGIN
  UPDATE books_daily SET spent = spent - coalesce(old.net_amount, old.amount) WHERE workspace_id = old.workspace_id AND day = old.incurred_on AND currency = old.currency;
  INSERT INTO books_daily (workspace_id, day, currency, spent) VALUES (new.workspace_id, new.incurred_on, new.currency, coalesce(new.net_amount, new.amount))
    ON CONFLICT (workspace_id, day, currency) DO UPDATE SET spent = spent + excluded.spent;
END;
