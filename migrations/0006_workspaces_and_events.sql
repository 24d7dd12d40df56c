-- Workspaces (§9) and the event record (§11). Additive: new tables and nullable columns, then a
-- backfill. Every user gets a personal workspace whose id shares the user's ULID (usr_X → wsp_X),
-- owned by that user; every record, key and counter moves into it with its id and number unchanged,
-- and every old activity row becomes an event with the user as actor.
--
-- The three monthly roll-ups and the status counts were keyed by user; they are derived data (no
-- table references them), so they are dropped with their triggers and rebuilt keyed by workspace.
-- idempotency_keys (24 h of replays, no children) is copied into idempotency_requests, scoped by
-- workspace, and dropped.
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`personal_user_id` text,
	`invoice_seq` integer DEFAULT 0 NOT NULL,
	`invoice_prefix` text DEFAULT 'INV-' NOT NULL,
	`time_zone` text DEFAULT 'UTC' NOT NULL,
	`locale` text DEFAULT 'en-US' NOT NULL,
	`issuer` text,
	`payment_instructions` text,
	`reminders_enabled` integer DEFAULT false NOT NULL,
	`reminder_days` text DEFAULT '[3,10]' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`personal_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_personal_user_id_unique` ON `workspaces` (`personal_user_id`);
--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_workspace_user_uq` ON `memberships` (`workspace_id`,`user_id`);
--> statement-breakpoint
CREATE INDEX `memberships_user_idx` ON `memberships` (`user_id`);
--> statement-breakpoint
ALTER TABLE `clients` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `expenses` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `gigs` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `invoices` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `payments` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `projects` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `suggestions` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `transfers` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `api_keys` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `invitations` ADD `kind` text DEFAULT 'signup' NOT NULL;
--> statement-breakpoint
ALTER TABLE `invitations` ADD `workspace_id` text REFERENCES workspaces(id);
--> statement-breakpoint
ALTER TABLE `invitations` ADD `role` text;
--> statement-breakpoint
ALTER TABLE `invitations` ADD `invited_by` text REFERENCES users(id);
--> statement-breakpoint
ALTER TABLE `invitations` ADD `withdrawn_at` text;
--> statement-breakpoint
INSERT INTO `workspaces` (id, name, personal_user_id, invoice_seq, invoice_prefix, time_zone, locale, reminders_enabled, reminder_days, created_at, updated_at)
  SELECT 'wsp_' || substr(id, 5), name, id, invoice_seq, 'INV-', 'UTC', 'en-US', 0, '[3,10]', created_at, created_at FROM users;
--> statement-breakpoint
INSERT INTO `memberships` (id, workspace_id, user_id, role, created_at)
  SELECT 'mem_' || substr(id, 5), 'wsp_' || substr(id, 5), id, 'owner', created_at FROM users;
--> statement-breakpoint
UPDATE `api_keys` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `clients` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `projects` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `invoices` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `payments` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `expenses` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `gigs` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `transfers` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
UPDATE `suggestions` SET workspace_id = 'wsp_' || substr(user_id, 5) WHERE workspace_id IS NULL;
--> statement-breakpoint
DROP INDEX `clients_user_idx`;
--> statement-breakpoint
DROP INDEX `clients_user_status_idx`;
--> statement-breakpoint
DROP INDEX `expenses_user_idx`;
--> statement-breakpoint
DROP INDEX `expenses_user_incurred_idx`;
--> statement-breakpoint
DROP INDEX `expenses_user_project_idx`;
--> statement-breakpoint
DROP INDEX `gigs_user_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_number_uq`;
--> statement-breakpoint
DROP INDEX `invoices_user_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_status_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_status_due_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_issue_totals_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_open_due_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_client_idx`;
--> statement-breakpoint
DROP INDEX `invoices_user_project_idx`;
--> statement-breakpoint
DROP INDEX `payments_user_paid_on_idx`;
--> statement-breakpoint
DROP INDEX `projects_user_idx`;
--> statement-breakpoint
DROP INDEX `projects_user_status_idx`;
--> statement-breakpoint
DROP INDEX `projects_user_client_idx`;
--> statement-breakpoint
DROP INDEX `suggestions_user_idx`;
--> statement-breakpoint
DROP INDEX `transfers_user_idx`;
--> statement-breakpoint
CREATE INDEX `clients_workspace_idx` ON `clients` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `clients_workspace_status_idx` ON `clients` (`workspace_id`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `projects_workspace_idx` ON `projects` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `projects_workspace_status_idx` ON `projects` (`workspace_id`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `projects_workspace_client_idx` ON `projects` (`workspace_id`,`client_id`,`id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_workspace_number_uq` ON `invoices` (`workspace_id`,`number`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_idx` ON `invoices` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_status_idx` ON `invoices` (`workspace_id`,`status`,`id`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_status_due_idx` ON `invoices` (`workspace_id`,`status`,`due_date`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_issue_totals_idx` ON `invoices` (`workspace_id`,`issue_date`,`status`,`currency`,`total`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_open_due_idx` ON `invoices` (`workspace_id`,`status`,`currency`,`due_date`,`total`,`amount_paid`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_client_idx` ON `invoices` (`workspace_id`,`client_id`,`id`);
--> statement-breakpoint
CREATE INDEX `invoices_workspace_project_idx` ON `invoices` (`workspace_id`,`project_id`,`id`);
--> statement-breakpoint
CREATE INDEX `payments_workspace_paid_on_idx` ON `payments` (`workspace_id`,`paid_on`,`currency`,`amount`);
--> statement-breakpoint
CREATE INDEX `expenses_workspace_idx` ON `expenses` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `expenses_workspace_incurred_idx` ON `expenses` (`workspace_id`,`incurred_on`,`currency`,`amount`);
--> statement-breakpoint
CREATE INDEX `expenses_workspace_project_idx` ON `expenses` (`workspace_id`,`project_id`,`id`);
--> statement-breakpoint
CREATE INDEX `gigs_workspace_idx` ON `gigs` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `transfers_workspace_idx` ON `transfers` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `suggestions_workspace_idx` ON `suggestions` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `invitations_workspace_idx` ON `invitations` (`workspace_id`,`id`);
--> statement-breakpoint
DROP TRIGGER `invoice_status_counts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `invoice_status_counts_after_delete`;
--> statement-breakpoint
DROP TRIGGER `invoice_status_counts_after_status_change`;
--> statement-breakpoint
DROP TRIGGER `invoice_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `invoice_monthly_after_delete`;
--> statement-breakpoint
DROP TRIGGER `invoice_monthly_after_update`;
--> statement-breakpoint
DROP TRIGGER `payment_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `payment_monthly_after_delete`;
--> statement-breakpoint
DROP TRIGGER `expense_monthly_after_insert`;
--> statement-breakpoint
DROP TRIGGER `expense_monthly_after_delete`;
--> statement-breakpoint
DROP TRIGGER `expense_monthly_after_update`;
--> statement-breakpoint
DROP TABLE `invoice_status_counts`;
--> statement-breakpoint
DROP TABLE `invoice_monthly_totals`;
--> statement-breakpoint
DROP TABLE `payment_monthly_totals`;
--> statement-breakpoint
DROP TABLE `expense_monthly_totals`;
--> statement-breakpoint
CREATE TABLE `workspace_invoice_status_counts` (
	`workspace_id` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `status`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `workspace_invoice_monthly_totals` (
	`workspace_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`invoiced` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `month`, `currency`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `workspace_payment_monthly_totals` (
	`workspace_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`collected` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `month`, `currency`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `workspace_expense_monthly_totals` (
	`workspace_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`spent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `month`, `currency`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `workspace_invoice_status_counts` (workspace_id, status, count) SELECT workspace_id, status, count(*) FROM invoices GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO `workspace_invoice_monthly_totals` (workspace_id, month, currency, invoiced)
  SELECT workspace_id, substr(issue_date, 1, 7), currency, sum(total) FROM invoices WHERE status IN ('open', 'paid') GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `workspace_payment_monthly_totals` (workspace_id, month, currency, collected)
  SELECT workspace_id, substr(paid_on, 1, 7), currency, sum(amount) FROM payments GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `workspace_expense_monthly_totals` (workspace_id, month, currency, spent)
  SELECT workspace_id, substr(incurred_on, 1, 7), currency, sum(amount) FROM expenses GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `workspace_invoice_status_counts_after_insert` AFTER INSERT ON `invoices` BEGIN
  INSERT INTO workspace_invoice_status_counts (workspace_id, status, count) VALUES (new.workspace_id, new.status, 1)
    ON CONFLICT (workspace_id, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_invoice_status_counts_after_delete` AFTER DELETE ON `invoices` BEGIN
  UPDATE workspace_invoice_status_counts SET count = count - 1 WHERE workspace_id = old.workspace_id AND status = old.status;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_invoice_status_counts_after_status_change` AFTER UPDATE OF status ON `invoices` WHEN old.status != new.status BEGIN
  UPDATE workspace_invoice_status_counts SET count = count - 1 WHERE workspace_id = old.workspace_id AND status = old.status;
  INSERT INTO workspace_invoice_status_counts (workspace_id, status, count) VALUES (new.workspace_id, new.status, 1)
    ON CONFLICT (workspace_id, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_invoice_monthly_after_insert` AFTER INSERT ON `invoices` WHEN new.status IN ('open', 'paid') BEGIN
  INSERT INTO workspace_invoice_monthly_totals (workspace_id, month, currency, invoiced) VALUES (new.workspace_id, substr(new.issue_date, 1, 7), new.currency, new.total)
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_invoice_monthly_after_delete` AFTER DELETE ON `invoices` WHEN old.status IN ('open', 'paid') BEGIN
  UPDATE workspace_invoice_monthly_totals SET invoiced = invoiced - old.total
    WHERE workspace_id = old.workspace_id AND month = substr(old.issue_date, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_invoice_monthly_after_update` AFTER UPDATE OF status, total, issue_date, currency ON `invoices` BEGIN
  UPDATE workspace_invoice_monthly_totals SET invoiced = invoiced - old.total
    WHERE old.status IN ('open', 'paid') AND workspace_id = old.workspace_id AND month = substr(old.issue_date, 1, 7) AND currency = old.currency;
  INSERT INTO workspace_invoice_monthly_totals (workspace_id, month, currency, invoiced)
    SELECT new.workspace_id, substr(new.issue_date, 1, 7), new.currency, new.total WHERE new.status IN ('open', 'paid')
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET invoiced = invoiced + excluded.invoiced;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_payment_monthly_after_insert` AFTER INSERT ON `payments` BEGIN
  INSERT INTO workspace_payment_monthly_totals (workspace_id, month, currency, collected) VALUES (new.workspace_id, substr(new.paid_on, 1, 7), new.currency, new.amount)
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET collected = collected + excluded.collected;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_payment_monthly_after_delete` AFTER DELETE ON `payments` BEGIN
  UPDATE workspace_payment_monthly_totals SET collected = collected - old.amount
    WHERE workspace_id = old.workspace_id AND month = substr(old.paid_on, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_expense_monthly_after_insert` AFTER INSERT ON `expenses` BEGIN
  INSERT INTO workspace_expense_monthly_totals (workspace_id, month, currency, spent) VALUES (new.workspace_id, substr(new.incurred_on, 1, 7), new.currency, new.amount)
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET spent = spent + excluded.spent;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_expense_monthly_after_delete` AFTER DELETE ON `expenses` BEGIN
  UPDATE workspace_expense_monthly_totals SET spent = spent - old.amount
    WHERE workspace_id = old.workspace_id AND month = substr(old.incurred_on, 1, 7) AND currency = old.currency;
END;
--> statement-breakpoint
CREATE TRIGGER `workspace_expense_monthly_after_update` AFTER UPDATE OF amount, currency, incurred_on ON `expenses` BEGIN
  UPDATE workspace_expense_monthly_totals SET spent = spent - old.amount
    WHERE workspace_id = old.workspace_id AND month = substr(old.incurred_on, 1, 7) AND currency = old.currency;
  INSERT INTO workspace_expense_monthly_totals (workspace_id, month, currency, spent) VALUES (new.workspace_id, substr(new.incurred_on, 1, 7), new.currency, new.amount)
    ON CONFLICT (workspace_id, month, currency) DO UPDATE SET spent = spent + excluded.spent;
END;
--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`object_id` text NOT NULL,
	`summary` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `events` (id, workspace_id, type, actor_type, actor_id, actor_name, object_id, summary, data, created_at)
  SELECT 'evt_' || substr(a.id, 5), 'wsp_' || substr(a.user_id, 5),
         CASE a.type WHEN 'expense.recorded' THEN 'expense.created' ELSE a.type END,
         'user', a.user_id, u.name, a.subject_id, a.summary,
         json_object('object', json_object('id', a.subject_id)), a.occurred_at
  FROM activities a JOIN users u ON u.id = a.user_id;
--> statement-breakpoint
CREATE INDEX `events_workspace_idx` ON `events` (`workspace_id`,`id`);
--> statement-breakpoint
CREATE INDEX `events_workspace_type_idx` ON `events` (`workspace_id`,`type`,`id`);
--> statement-breakpoint
CREATE INDEX `events_created_idx` ON `events` (`created_at`);
--> statement-breakpoint
CREATE TABLE `idempotency_requests` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`fingerprint` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`, `key`)
);
--> statement-breakpoint
INSERT INTO `idempotency_requests` (workspace_id, user_id, key, method, path, fingerprint, state, response_status, response_body, created_at, expires_at)
  SELECT 'wsp_' || substr(user_id, 5), user_id, key, method, path, fingerprint, state, response_status, response_body, created_at, expires_at FROM idempotency_keys;
--> statement-breakpoint
CREATE INDEX `idempotency_requests_expires_idx` ON `idempotency_requests` (`expires_at`);
--> statement-breakpoint
DROP TABLE `idempotency_keys`;
