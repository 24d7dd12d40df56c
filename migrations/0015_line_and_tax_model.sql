ALTER TABLE `clients` ADD `peppol_id` text;--> statement-breakpoint
ALTER TABLE `clients` ADD `buyer_reference` text;--> statement-breakpoint
ALTER TABLE `invoice_line_items` ADD `unit` text DEFAULT 'C62' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_line_items` ADD `discount_percent_milli` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_line_items` ADD `discount_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_line_items` ADD `tax_category` text DEFAULT 'S' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `discount` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `discount_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `tax_rounding` text DEFAULT 'line' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `tax_breakdown` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `tax_exemption_reason` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `tax_exemption_code` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `buyer_reference` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `purchase_order` text;--> statement-breakpoint
ALTER TABLE `recurring_invoices` ADD `tax_rounding` text DEFAULT 'line' NOT NULL;--> statement-breakpoint
ALTER TABLE `recurring_invoices` ADD `discount` text;--> statement-breakpoint
ALTER TABLE `recurring_invoices` ADD `tax_exemption_reason` text;--> statement-breakpoint
ALTER TABLE `recurring_invoices` ADD `tax_exemption_code` text;--> statement-breakpoint
ALTER TABLE `recurring_invoices` ADD `buyer_reference` text;--> statement-breakpoint
ALTER TABLE `recurring_invoices` ADD `purchase_order` text;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `tax_rounding` text DEFAULT 'line' NOT NULL;--> statement-breakpoint
-- Old lines: unit C62 and no discount (the column defaults), and the category their rate and their
-- invoice imply (§15): S when taxed; for rate 0, Z beside a taxed line or when the workspace's issuer
-- has a VAT id, else O. Amounts are left exactly as they were.
UPDATE `invoice_line_items` SET `tax_category` = CASE
  WHEN `tax_rate_milli` > 0 THEN 'S'
  WHEN EXISTS (SELECT 1 FROM `invoice_line_items` AS `o` WHERE `o`.`invoice_id` = `invoice_line_items`.`invoice_id` AND `o`.`tax_rate_milli` > 0) THEN 'Z'
  WHEN EXISTS (
    SELECT 1 FROM `invoices` AS `i` JOIN `workspaces` AS `w` ON `w`.`id` = `i`.`workspace_id`
    WHERE `i`.`id` = `invoice_line_items`.`invoice_id` AND json_extract(`w`.`issuer`, '$.vat_id') IS NOT NULL
  ) THEN 'Z'
  ELSE 'O'
END;--> statement-breakpoint
-- Old invoices: rounded by line with no discount, so each tax group's taxable amount and tax are the
-- sums of its lines, and subtotal, tax and total stay what they were. Groups in the order of their first line.
UPDATE `invoices` SET `tax_breakdown` = (
  SELECT json_group_array(json_object(
    'category', `g`.`category`, 'rate', `g`.`rate`, 'taxable_amount', `g`.`net`, 'tax_amount', `g`.`tax`, 'discount_amount', 0,
    'exemption_reason', CASE `g`.`category` WHEN 'O' THEN 'Not subject to VAT' ELSE NULL END, 'exemption_code', NULL
  ))
  FROM (
    SELECT `l`.`tax_category` AS `category`, `l`.`tax_rate_milli` / 1000.0 AS `rate`, SUM(`l`.`amount`) AS `net`, SUM(`l`.`tax`) AS `tax`, MIN(`l`.`position`) AS `first`
    FROM `invoice_line_items` AS `l` WHERE `l`.`invoice_id` = `invoices`.`id`
    GROUP BY `l`.`tax_category`, `l`.`tax_rate_milli` ORDER BY `first`
  ) AS `g`
) WHERE `tax_breakdown` IS NULL;
