ALTER TABLE `clients` ADD `locale` text;--> statement-breakpoint
ALTER TABLE `credit_notes` ADD `locale` text;--> statement-breakpoint
-- A credit note issued before this read in its invoice's language (§20): it keeps it, now as its own.
UPDATE `credit_notes` SET `locale` = (SELECT `locale` FROM `invoices` WHERE `invoices`.`id` = `credit_notes`.`invoice_id`) WHERE `locale` IS NULL;
