-- Uploaded documents: the bytes live in the object store under `storage_key` (random); the row ties
-- them to an application. The file name is the applicant's and is never logged.
CREATE TABLE documents (
    id              uuid PRIMARY KEY,
    application_id  uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    storage_key     text NOT NULL UNIQUE,
    file_name       text NOT NULL,
    content_type    text NOT NULL,
    size_bytes      integer NOT NULL CHECK (size_bytes > 0),
    created_at      timestamptz NOT NULL
);
CREATE INDEX documents_application_idx ON documents (application_id);

-- Page views of the wizard (spec part 1, 4.1): the route's template, never a filled-in path.
CREATE TABLE page_views (
    id              bigserial PRIMARY KEY,
    application_id  uuid REFERENCES applications (id) ON DELETE SET NULL,
    agent_id        uuid REFERENCES agents (id) ON DELETE SET NULL,
    route           text NOT NULL CHECK (route ~ '^/[A-Za-z0-9/_:.-]{0,120}$'),
    viewed_at       timestamptz NOT NULL
);
CREATE INDEX page_views_viewed_idx ON page_views (viewed_at);
