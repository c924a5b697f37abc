-- The steps a maker ticked on a saved issue, stored with it so the phone at
-- the printer and the desktop agree (issue 11).
ALTER TABLE issues ADD COLUMN checked_steps TEXT NOT NULL DEFAULT '[]';
