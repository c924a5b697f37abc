-- Limits shared by every instance on one database (issue 14). A SQLite
-- data dir has one server, which keeps its limits in memory; the table
-- keeps both dialects on one schema version.
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  n INTEGER NOT NULL DEFAULT 0,
  window_start DATETIME NOT NULL,
  next_at DATETIME,
  excess INTEGER NOT NULL DEFAULT 0,
  expires_at DATETIME NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits(expires_at);
