-- Agents and the subdomains of their branded sites (spec part 1, section 3 "Agent branding").
-- An agent may own several subdomains; the first (position 0) is the one shared with customers.
CREATE TABLE agents (
    id                      uuid PRIMARY KEY,
    npn                     text NOT NULL UNIQUE CHECK (npn ~ '^[0-9]{1,10}$'),
    agent_name              text NOT NULL,
    agency_name             text NOT NULL,
    -- Plain-text address lines; the API escapes them and joins them with <br> (spec: "address (HTML)").
    address_lines           text[] NOT NULL DEFAULT '{}',
    email                   text NOT NULL,
    phone_number            text NOT NULL CHECK (phone_number ~ '^[0-9]{10}$'),
    fax_number              text CHECK (fax_number ~ '^[0-9]{10}$'),
    website_url             text,
    display_bcbsm           boolean NOT NULL DEFAULT false, -- offers the Blue Cross family carriers (ids 1, 2)
    display_ph              boolean NOT NULL DEFAULT false, -- offers the Priority carrier (id 3)
    display_medicare        boolean NOT NULL DEFAULT false,
    marketplace_certified   boolean NOT NULL DEFAULT false,
    logo                    bytea,
    logo_content_type       text CHECK (logo_content_type IN ('image/png', 'image/jpeg', 'image/svg+xml')),
    created_at              timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agent_subdomains (
    subdomain   text PRIMARY KEY CHECK (subdomain ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
    agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    position    integer NOT NULL DEFAULT 0,
    UNIQUE (agent_id, position)
);
