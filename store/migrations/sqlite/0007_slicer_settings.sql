-- Settings read from the sliced file (G-code or 3MF) of a saved issue: only
-- the numbers the analysis uses, never the file (issue 11).
ALTER TABLE issues ADD COLUMN slicer_settings TEXT;
