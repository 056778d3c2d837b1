-- The site an application was started on (the dashboard's Site filter); NULL for older rows.
ALTER TABLE applications ADD COLUMN subdomain text;

-- Agent messages (spec part 2, Manage Agent Messages and Notifications). `content` is HTML,
-- sanitized before it is stored (and again when served).
CREATE TABLE agent_messages (
    id            uuid PRIMARY KEY,
    title         text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 255),
    content       text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 20000),
    is_sticky     boolean NOT NULL DEFAULT false,
    publish_date  date NOT NULL,
    expires_at    date CHECK (expires_at IS NULL OR expires_at >= publish_date),
    code          text CHECK (char_length(code) <= 50),
    created_at    timestamptz NOT NULL,
    created_by    uuid REFERENCES users (id) ON DELETE SET NULL
);

-- The agents a message is addressed to.
CREATE TABLE agent_message_targets (
    message_id  uuid NOT NULL REFERENCES agent_messages (id) ON DELETE CASCADE,
    agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, agent_id)
);
CREATE INDEX agent_message_targets_agent_idx ON agent_message_targets (agent_id);

-- A user's dismissal of a (non-sticky) message.
CREATE TABLE agent_message_dismissals (
    message_id    uuid NOT NULL REFERENCES agent_messages (id) ON DELETE CASCADE,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    dismissed_at  timestamptz NOT NULL,
    PRIMARY KEY (message_id, user_id)
);
