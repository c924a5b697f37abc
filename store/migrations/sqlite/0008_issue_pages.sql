-- Issue pages and counts for farms with a long history (issue 14): the
-- newest-first page of one maker, by status too, without a scan.
CREATE INDEX issues_user_created_id ON issues(user_id, created_at, id);
CREATE INDEX issues_user_status_created ON issues(user_id, status, created_at, id);
CREATE INDEX issues_user_facets ON issues(user_id, printer_id, category, status, created_at);
