-- Workspace (issue 6): uploaded photos with their owner, the server's
-- signing keys (shared by every instance), and indexes for the issue log.
CREATE TABLE photos (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  size_bytes INTEGER NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX photos_user_id ON photos(user_id);

CREATE TABLE server_keys (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE INDEX issues_printer_status ON issues(printer_id, status, resolved_at);
