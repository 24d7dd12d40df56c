ALTER TABLE `clients` ADD `tax_treatment` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `default_tax_rate_milli` integer;--> statement-breakpoint
ALTER TABLE `workspaces` ADD `supply_type` text DEFAULT 'services' NOT NULL;