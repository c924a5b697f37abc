-- Anonymous usage is transferred once per IP and month, and only into an
-- account created by that sign-up (issue 11): the record remembers it.
ALTER TABLE anonymous_usage ADD COLUMN transferred BOOLEAN NOT NULL DEFAULT FALSE;
