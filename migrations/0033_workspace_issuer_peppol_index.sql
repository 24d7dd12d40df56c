-- §21: the workspace a sent e-invoice is delivered to is found by its issuer's Peppol id on the directory.
-- (Written by hand: drizzle-kit 0.31 splits an expression index's text at its commas; its snapshot keeps the
-- expression as the schema states it, so the next generate sees no change here.)
CREATE INDEX `workspaces_issuer_peppol_idx` ON `workspaces` (lower(json_extract(`issuer`, '$.peppol_id')));
