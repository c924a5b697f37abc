-- Limits shared by every instance on one database (issue 14): login
-- lockouts, sign-up, reset-mail and share rates, one row per hashed key.
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  n INTEGER NOT NULL DEFAULT 0,
  window_start TIMESTAMPTZ NOT NULL,
  next_at TIMESTAMPTZ,
  excess INTEGER NOT NULL DEFAULT 0,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits(expires_at);
