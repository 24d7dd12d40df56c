-- The dashboard sums what open invoices still owe, total - credited_amount - amount_paid (credit
-- notes, 0021). The covering index for it predates credited_amount, so every open invoice was read
-- from the table too. The new index covers all three; the old one is dropped (an index only: no
-- row is touched, and the new one serves every query the old one did, as its columns lead).
DROP INDEX `invoices_workspace_open_due_idx`;--> statement-breakpoint
CREATE INDEX `invoices_workspace_open_owed_idx` ON `invoices` (`workspace_id`,`status`,`currency`,`due_date`,`total`,`amount_paid`,`credited_amount`);