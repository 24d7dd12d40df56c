CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text,
	`attempt` integer DEFAULT 1 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`response_status` integer,
	`response_body` text,
	`duration_ms` integer,
	`error` text,
	`next_attempt_at` text,
	`enqueued_at` text,
	`lease_until` text,
	`created_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`events` text NOT NULL,
	`status` text NOT NULL,
	`disabled_reason` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`failing_since` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_workspace_idx` ON `webhook_endpoints` (`workspace_id`,`status`,`id`);--> statement-breakpoint
-- hand-written below: keep when regenerating
-- Fan-out in the event's own batch: every event inserts one pending delivery attempt for each
-- enabled endpoint of its workspace subscribed to its type (or to "*"), so a delivery exists if and
-- only if its event does, whatever wrote the event. The id is a `whd_` ULID: the event's
-- millisecond, then 16 random Crockford base32 characters.
CREATE TRIGGER `webhook_deliveries_for_event` AFTER INSERT ON `events`
BEGIN
  INSERT INTO `webhook_deliveries` (`id`, `workspace_id`, `endpoint_id`, `event_id`, `event_type`, `attempt`, `status`, `next_attempt_at`, `created_at`)
  SELECT
    'whd_' ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 45) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 40) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 35) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 30) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 25) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 20) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 15) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 10) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 5) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((CAST(unixepoch(NEW.created_at, 'subsec') * 1000 AS INTEGER) >> 0) & 31) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1) ||
      substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (abs(random()) % 32) + 1, 1),
    e.`workspace_id`, e.`id`, NEW.`id`, NEW.`type`, 1, 'pending', NEW.`created_at`, NEW.`created_at`
  FROM `webhook_endpoints` e
  WHERE e.`workspace_id` = NEW.`workspace_id` AND e.`status` = 'enabled'
    AND EXISTS (SELECT 1 FROM json_each(e.`events`) WHERE json_each.value IN ('*', NEW.`type`));
END;
