CREATE TABLE `exchange_rates` (
	`currency` text NOT NULL,
	`day` text NOT NULL,
	`rate` real NOT NULL,
	`as_of` text NOT NULL,
	PRIMARY KEY(`currency`, `day`)
);
