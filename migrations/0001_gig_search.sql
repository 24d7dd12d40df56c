-- Full-text search over the gig board. gigs_fts is an external-content FTS5 index of gigs
-- (title, description, skills), kept in step by triggers, so a search reads the index, not every gig.
CREATE VIRTUAL TABLE `gigs_fts` USING fts5(title, description, skills, content='gigs', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `gigs_fts_after_insert` AFTER INSERT ON `gigs` BEGIN
  INSERT INTO gigs_fts(rowid, title, description, skills) VALUES (new.rowid, new.title, new.description, new.skills);
END;
--> statement-breakpoint
CREATE TRIGGER `gigs_fts_after_delete` AFTER DELETE ON `gigs` BEGIN
  INSERT INTO gigs_fts(gigs_fts, rowid, title, description, skills) VALUES ('delete', old.rowid, old.title, old.description, old.skills);
END;
--> statement-breakpoint
CREATE TRIGGER `gigs_fts_after_update` AFTER UPDATE OF title, description, skills ON `gigs` BEGIN
  INSERT INTO gigs_fts(gigs_fts, rowid, title, description, skills) VALUES ('delete', old.rowid, old.title, old.description, old.skills);
  INSERT INTO gigs_fts(rowid, title, description, skills) VALUES (new.rowid, new.title, new.description, new.skills);
END;
