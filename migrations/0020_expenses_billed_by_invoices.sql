-- The invoice that bills an expense (§19). Nullable with no default, so SQLite adds it in place
-- (no table rebuild); ON DELETE SET NULL releases the expense when its draft is deleted.
ALTER TABLE `expenses` ADD `invoice_id` text REFERENCES invoices(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `expenses_invoice_idx` ON `expenses` (`invoice_id`);
