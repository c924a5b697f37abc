-- Billing (issue 7): the paid period of a Stripe subscription, a pending
-- cancellation, a unique customer per user, and the processed webhook
-- events (a replayed event id is applied once).
ALTER TABLE users ADD COLUMN current_period_end TIMESTAMPTZ;
ALTER TABLE users ADD COLUMN cancel_at_period_end BOOLEAN NOT NULL DEFAULT FALSE;
CREATE UNIQUE INDEX users_stripe_customer_id ON users(stripe_customer_id);

CREATE TABLE stripe_events (
  id BIGSERIAL PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  processed_at TIMESTAMPTZ NOT NULL
);
