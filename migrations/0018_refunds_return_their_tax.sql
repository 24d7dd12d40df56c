-- A refund gives back its payment's tax share in proportion (§5, §16): refund × payment tax ÷ payment
-- amount, half away from zero (all positive, so half up), so `tax_collected` and `profit` follow
-- refunds as `collected` already does. The refund triggers of 0012 now keep both; the roll-ups are
-- corrected for refunds made before.
DROP TRIGGER `workspace_refund_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `workspace_refund_monthly_after_fail`;
--> statement-breakpoint
CREATE TRIGGER `workspace_refund_monthly_after_insert` AFTER INSERT ON `refunds` WHEN new.status != 'failed' BEGIN
  INSERT INTO workspace_payment_monthly_totals (workspace_id, month, currency, collected, tax_collected)
    SELECT new.workspace_id, substr(new.refunded_on, 1, 7), new.currency, -new.amount,
      -coalesce((SELECT CASE WHEN p.amount > 0 THEN (2 * new.amount * coalesce(p.tax, 0) + p.amount) / (2 * p.amount) ELSE 0 END FROM payments p WHERE p.id = new.payment_id), 0)
    WHERE 1
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET collected = collected + excluded.collected, tax_collected = tax_collected + excluded.tax_collected;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_refund_monthly_after_fail` AFTER UPDATE OF status ON `refunds` WHEN old.status != 'failed' AND new.status = 'failed' BEGIN
  UPDATE workspace_payment_monthly_totals SET collected = collected + old.amount,
    tax_collected = tax_collected + coalesce((SELECT CASE WHEN p.amount > 0 THEN (2 * old.amount * coalesce(p.tax, 0) + p.amount) / (2 * p.amount) ELSE 0 END FROM payments p WHERE p.id = old.payment_id), 0)
    WHERE workspace_id = old.workspace_id AND month = substr(old.refunded_on, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
UPDATE `workspace_payment_monthly_totals` SET `tax_collected` = `tax_collected` - coalesce((
  SELECT sum(CASE WHEN p.amount > 0 THEN (2 * r.amount * coalesce(p.tax, 0) + p.amount) / (2 * p.amount) ELSE 0 END)
  FROM refunds r JOIN payments p ON p.id = r.payment_id
  WHERE r.status != 'failed' AND r.workspace_id = workspace_payment_monthly_totals.workspace_id
    AND substr(r.refunded_on, 1, 7) = workspace_payment_monthly_totals.month AND r.currency = workspace_payment_monthly_totals.currency
), 0);
