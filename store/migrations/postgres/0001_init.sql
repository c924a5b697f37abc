-- Entities of SPEC section 3.
CREATE TABLE users (
  id BIGSERIAL PRIMARY KEY,
  firebase_uid TEXT UNIQUE,
  email TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL DEFAULT '',
  stripe_customer_id TEXT,
  stripe_subscription_id TEXT,
  subscription_status TEXT NOT NULL DEFAULT 'inactive',
  subscription_tier TEXT NOT NULL DEFAULT 'free',
  monthly_usage INTEGER NOT NULL DEFAULT 0,
  last_usage_reset TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE printers (
  id BIGSERIAL PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  brand TEXT NOT NULL,
  nozzle_size DOUBLE PRECISION NOT NULL DEFAULT 0.4,
  filament_diameter DOUBLE PRECISION NOT NULL DEFAULT 1.75,
  build_volume TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX printers_user_id ON printers(user_id);

CREATE TABLE issues (
  id BIGSERIAL PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  printer_id BIGINT REFERENCES printers(id) ON DELETE SET NULL,
  category TEXT NOT NULL,
  description TEXT NOT NULL,
  material TEXT,
  nozzle_temp DOUBLE PRECISION,
  bed_temp DOUBLE PRECISION,
  layer_height DOUBLE PRECISION,
  print_speed DOUBLE PRECISION,
  infill DOUBLE PRECISION,
  photo_urls JSONB NOT NULL DEFAULT '[]',
  ai_checklist JSONB,
  status TEXT NOT NULL DEFAULT 'pending',
  resolved_at TIMESTAMPTZ,
  working_recommendations JSONB NOT NULL DEFAULT '[]',
  resolution_notes TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX issues_user_created ON issues(user_id, created_at);
CREATE INDEX issues_printer_id ON issues(printer_id);

CREATE TABLE shared_results (
  id BIGSERIAL PRIMARY KEY,
  share_id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL DEFAULT '',
  troubleshooting_data JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE anonymous_usage (
  id BIGSERIAL PRIMARY KEY,
  ip_address VARCHAR(45) NOT NULL,
  usage_count INTEGER NOT NULL DEFAULT 0,
  month INTEGER NOT NULL,
  year INTEGER NOT NULL,
  last_used TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (ip_address, month, year)
);
