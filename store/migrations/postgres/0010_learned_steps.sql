-- What learning keeps of a confirmed fix: the knowledge-base steps the maker
-- confirmed (never their wording) and a keyed hash of the network the
-- confirmation came from (never an address).
ALTER TABLE issues ADD COLUMN learned_steps JSONB NOT NULL DEFAULT '[]';
ALTER TABLE issues ADD COLUMN confirm_network TEXT NOT NULL DEFAULT '';
