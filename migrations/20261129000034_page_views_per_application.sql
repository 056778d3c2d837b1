-- An application's page views are bounded (at most a thousand kept): counted by this index.
CREATE INDEX page_views_application_idx ON page_views (application_id) WHERE application_id IS NOT NULL;
