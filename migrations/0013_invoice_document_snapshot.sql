ALTER TABLE `invoices` ADD `locale` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `payment_instructions` text;--> statement-breakpoint
-- Invoices sent before this release keep the language and payment instructions their workspace has
-- now, from here on (every database holds its workspaces' rows, mirrored ones included).
UPDATE `invoices` SET
  `locale` = (SELECT `locale` FROM `workspaces` WHERE `workspaces`.`id` = `invoices`.`workspace_id`),
  `payment_instructions` = (SELECT `payment_instructions` FROM `workspaces` WHERE `workspaces`.`id` = `invoices`.`workspace_id`)
WHERE `status` != 'draft' AND `locale` IS NULL;
