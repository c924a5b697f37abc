-- The printer's own text files a maker attached to an issue (logs,
-- configs, firmware settings dumps), secrets already stripped. They go with
-- the issue and with the account.
CREATE TABLE issue_attachments (
  issue_id BIGINT NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT '',
  bytes INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (issue_id, position)
);
ALTER TABLE issues ADD COLUMN attachment_count INTEGER NOT NULL DEFAULT 0;
