ALTER TABLE `workspace_expense_monthly_totals` ADD `input_tax` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `expenses_workspace_incurred_tax_idx` ON `expenses` (`workspace_id`,`incurred_on`,`currency`,`tax_amount`) WHERE "expenses"."tax_amount" IS NOT NULL;--> statement-breakpoint
-- §21: the input tax of expenses accepted from received documents (expenses.tax_amount; null on one typed in),
-- kept per month beside `spent` so the dashboard takes it out of its expenses in profit at the same cost.
UPDATE `workspace_expense_monthly_totals` SET `input_tax` = coalesce((
  SELECT sum(e.tax_amount) FROM expenses e
  WHERE e.workspace_id = workspace_expense_monthly_totals.workspace_id
    AND substr(e.incurred_on, 1, 7) = workspace_expense_monthly_totals.month
    AND e.currency = workspace_expense_monthly_totals.currency
), 0);
--> statement-breakpoint
DROP TRIGGER `workspace_expense_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `workspace_expense_monthly_after_delete`;
--> statement-breakpoint
DROP TRIGGER `workspace_expense_monthly_after_update`;
--> statement-breakpoint
CREATE TRIGGER `workspace_expense_monthly_after_insert` AFTER INSERT ON `expenses` BEGIN
  INSERT INTO workspace_expense_monthly_totals (workspace_id, month, currency, spent, input_tax)
    VALUES (new.workspace_id, substr(new.incurred_on, 1, 7), new.currency, new.amount, coalesce(new.tax_amount, 0))
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET spent = spent + excluded.spent, input_tax = input_tax + excluded.input_tax;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_expense_monthly_after_delete` AFTER DELETE ON `expenses` BEGIN
  UPDATE workspace_expense_monthly_totals SET spent = spent - old.amount, input_tax = input_tax - coalesce(old.tax_amount, 0)
    WHERE workspace_id = old.workspace_id AND month = substr(old.incurred_on, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_expense_monthly_after_update` AFTER UPDATE OF amount, currency, incurred_on, tax_amount ON `expenses` BEGIN
  UPDATE workspace_expense_monthly_totals SET spent = spent - old.amount, input_tax = input_tax - coalesce(old.tax_amount, 0)
    WHERE workspace_id = old.workspace_id AND month = substr(old.incurred_on, 1, 7) AND currency = old.currency;
  INSERT INTO workspace_expense_monthly_totals (workspace_id, month, currency, spent, input_tax)
    VALUES (new.workspace_id, substr(new.incurred_on, 1, 7), new.currency, new.amount, coalesce(new.tax_amount, 0))
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET spent = spent + excluded.spent, input_tax = input_tax + excluded.input_tax;
END;
