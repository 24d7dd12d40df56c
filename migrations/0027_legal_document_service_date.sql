ALTER TABLE `invoices` ADD `service_date` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `service_period_start` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `service_period_end` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `service_date` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `service_period_start` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `service_period_end` text;