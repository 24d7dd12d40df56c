ALTER TABLE `refunds` ADD `tax` integer;--> statement-breakpoint
-- A refund's tax share is now computed once, exactly, when it is made (lib/money.ts taxShare) and kept
-- on the row, as a payment's is; the roll-up triggers and the dashboard read it instead of working the
-- share out again in SQL. Refunds made before get it here, by the same rule (exact while
-- 2 × amount × tax stays below 2^63).
UPDATE `refunds` SET `tax` = coalesce((
  SELECT CASE WHEN p.amount > 0 THEN (2 * refunds.amount * coalesce(p.tax, 0) + p.amount) / (2 * p.amount) ELSE 0 END
  FROM payments p WHERE p.id = refunds.payment_id
), 0) WHERE `tax` IS NULL;
--> statement-breakpoint
DROP TRIGGER `workspace_refund_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `workspace_refund_monthly_after_fail`;
--> statement-breakpoint
CREATE TRIGGER `workspace_refund_monthly_after_insert` AFTER INSERT ON `refunds` WHEN new.status != 'failed' BEGIN
  INSERT INTO workspace_payment_monthly_totals (workspace_id, month, currency, collected, tax_collected)
    VALUES (new.workspace_id, substr(new.refunded_on, 1, 7), new.currency, -new.amount, -coalesce(new.tax, 0))
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET collected = collected + excluded.collected, tax_collected = tax_collected + excluded.tax_collected;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_refund_monthly_after_fail` AFTER UPDATE OF status ON `refunds` WHEN old.status != 'failed' AND new.status = 'failed' BEGIN
  UPDATE workspace_payment_monthly_totals SET collected = collected + old.amount, tax_collected = tax_collected + coalesce(old.tax, 0)
    WHERE workspace_id = old.workspace_id AND month = substr(old.refunded_on, 1, 7) AND currency = old.currency;
END;
