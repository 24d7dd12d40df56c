ALTER TABLE `workspace_payment_monthly_totals` ADD `tax_collected` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `tax` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `default_currency` text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
-- A payment's tax share: amount × invoice tax / invoice total, half away from zero (all positive, so
-- half up). The API computes it exactly (BigInt) when it records a payment; this SQL form, for rows
-- written before and for any writer that leaves it null, is exact while 2 × amount × tax stays below
-- 2^63 (amounts up to about 2 × 10^9 minor units each), past which SQLite would compute in REAL.
UPDATE `payments` SET `tax` = (
  SELECT CASE WHEN i.total > 0 THEN CAST((2 * payments.amount * i.tax + i.total) / (2 * i.total) AS INTEGER) ELSE 0 END
  FROM invoices i WHERE i.id = payments.invoice_id
) WHERE `tax` IS NULL;
--> statement-breakpoint
UPDATE `workspace_payment_monthly_totals` SET `tax_collected` = coalesce((
  SELECT sum(p.tax) FROM payments p
  WHERE p.workspace_id = workspace_payment_monthly_totals.workspace_id
    AND substr(p.paid_on, 1, 7) = workspace_payment_monthly_totals.month
    AND p.currency = workspace_payment_monthly_totals.currency
), 0);
--> statement-breakpoint
DROP TRIGGER `workspace_payment_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `workspace_payment_monthly_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `workspace_payment_monthly_after_insert` AFTER INSERT ON `payments` BEGIN
  UPDATE payments SET tax = (
    SELECT CASE WHEN i.total > 0 THEN CAST((2 * new.amount * i.tax + i.total) / (2 * i.total) AS INTEGER) ELSE 0 END
    FROM invoices i WHERE i.id = new.invoice_id
  ) WHERE id = new.id AND tax IS NULL;
  INSERT INTO workspace_payment_monthly_totals (workspace_id, month, currency, collected, tax_collected)
    SELECT new.workspace_id, substr(new.paid_on, 1, 7), new.currency, new.amount, coalesce(tax, 0) FROM payments WHERE id = new.id
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET collected = collected + excluded.collected, tax_collected = tax_collected + excluded.tax_collected;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_payment_monthly_after_delete` AFTER DELETE ON `payments` BEGIN
  UPDATE workspace_payment_monthly_totals SET collected = collected - old.amount, tax_collected = tax_collected - coalesce(old.tax, 0)
    WHERE workspace_id = old.workspace_id AND month = substr(old.paid_on, 1, 7) AND currency = old.currency;
END;
