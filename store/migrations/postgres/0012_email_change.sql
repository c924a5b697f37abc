-- An email-change link carries the new address it confirms: the account's
-- email changes only when the link sent to that address is opened.
ALTER TABLE auth_tokens ADD COLUMN new_email TEXT;
