-- Entities of SPEC section 3.
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  firebase_uid TEXT UNIQUE,
  email TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL DEFAULT '',
  stripe_customer_id TEXT,
  stripe_subscription_id TEXT,
  subscription_status TEXT NOT NULL DEFAULT 'inactive',
  subscription_tier TEXT NOT NULL DEFAULT 'free',
  monthly_usage INTEGER NOT NULL DEFAULT 0,
  last_usage_reset DATETIME,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE printers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  brand TEXT NOT NULL,
  nozzle_size REAL NOT NULL DEFAULT 0.4,
  filament_diameter REAL NOT NULL DEFAULT 1.75,
  build_volume TEXT,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX printers_user_id ON printers(user_id);

CREATE TABLE issues (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  printer_id INTEGER REFERENCES printers(id) ON DELETE SET NULL,
  category TEXT NOT NULL,
  description TEXT NOT NULL,
  material TEXT,
  nozzle_temp REAL,
  bed_temp REAL,
  layer_height REAL,
  print_speed REAL,
  infill REAL,
  photo_urls TEXT NOT NULL DEFAULT '[]',
  ai_checklist TEXT,
  status TEXT NOT NULL DEFAULT 'pending',
  resolved_at DATETIME,
  working_recommendations TEXT NOT NULL DEFAULT '[]',
  resolution_notes TEXT,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX issues_user_created ON issues(user_id, created_at);
CREATE INDEX issues_printer_id ON issues(printer_id);

CREATE TABLE shared_results (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  share_id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL DEFAULT '',
  troubleshooting_data TEXT NOT NULL,
  created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE anonymous_usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ip_address VARCHAR(45) NOT NULL,
  usage_count INTEGER NOT NULL DEFAULT 0,
  month INTEGER NOT NULL,
  year INTEGER NOT NULL,
  last_used DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
  UNIQUE (ip_address, month, year)
);
