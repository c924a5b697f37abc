-- The category the analysis diagnosed, beside the one the maker chose (the
-- default tile is "Other", so a clog would otherwise stay "Other" in the
-- log). Issues saved before it have NULL: they show the chosen category.
ALTER TABLE issues ADD COLUMN diagnosed_category TEXT;
-- The per-printer statistics group by both categories from the index alone.
DROP INDEX issues_user_facets;
CREATE INDEX issues_user_facets ON issues(user_id, printer_id, category, diagnosed_category, status, created_at);
