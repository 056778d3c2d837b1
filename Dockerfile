# syntax=docker/dockerfile:1
# The Enrollflow image: the `enrollflow` binary, the built web app, and the
# analysts' rules/, forms/ and templates/ it serves at start. Build it from the repository root:
#
#   docker build -t enrollflow .
#
# Secrets (ENROLLFLOW_DATA_KEY, ENROLLFLOW_ADMIN_TOKEN, DATABASE_URL) are never in the image: they
# come from the environment at run time (deploy/compose.yaml, docs/deploy.md).

# --- The web app: `npm run build` writes web/dist with a .br and a .gz copy of every text file. ---
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
# The build reads only web/ (tsconfig*.json, vite.config.ts, src/, the e2e/ sources tsc checks,
# scripts/precompress.mjs); .dockerignore keeps node_modules and dist out.
COPY web/ ./
RUN npm run build

# --- The server: one release binary. The registry and target folder are BuildKit caches, so the
# binary is copied out of the cache mount in the same step. ---
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY engine/ engine/
COPY engine-tools/ engine-tools/
COPY texts/ texts/
COPY server/ server/
# A member of the workspace (the layer check), not part of the binary.
COPY tools/layers/ tools/layers/
# Embedded into the binary at compile time (sqlx::migrate! in server/src/db/mod.rs; the demo
# data's answers in server/src/demo_data/answers.rs).
COPY migrations/ migrations/
COPY demo/answers.yaml demo/answers.yaml
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/usr/local/cargo/git \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin enrollflow \
    && cp target/release/enrollflow /usr/local/bin/enrollflow

# --- The runtime: Debian slim, CA certificates (TLS to PostgreSQL, SMTP, object storage) and
# postgresql-client 15 (pg_dump and pg_restore for `enrollflow backup` and `enrollflow restore`;
# pg_dump refuses a server newer than itself, so keep it at the server's major version). ---
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates postgresql-client \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 enrollflow \
    && useradd --system --uid 10001 --gid enrollflow --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin enrollflow
WORKDIR /app
COPY --from=build /usr/local/bin/enrollflow /usr/local/bin/enrollflow
COPY --from=web /src/web/dist /app/web/dist
# Owned by root and read-only for the server: it reads them at start (and serves the newest set
# published in the database when run with --rules-from-database).
COPY rules/ /app/rules/
COPY forms/ /app/forms/
COPY templates/ /app/templates/
# The demo agents and their logos, for `enrollflow seed --demo --file demo/agents.json`.
COPY demo/ /app/demo/
ENV ENROLLFLOW_LISTEN=0.0.0.0:8080 \
    ENROLLFLOW_ROOT=/app \
    ENROLLFLOW_STATIC_DIR=/app/web/dist \
    ENROLLFLOW_DOCUMENTS_DIR=/var/lib/enrollflow/documents
# The local document store, used when no object store is configured (mount a shared volume here
# when more than one instance runs).
RUN mkdir -p /var/lib/enrollflow/documents && chown -R enrollflow:enrollflow /var/lib/enrollflow
USER 10001
# 8080: the site and the API. The metrics port (ENROLLFLOW_METRICS_LISTEN, e.g. 0.0.0.0:9090) is
# opened only when set, and is for the private network.
EXPOSE 8080
# No HEALTHCHECK: the image has no curl or wget, and the binary has no probe command. Compose's
# load balancer and Kubernetes probes check GET /healthz (liveness) and GET /readyz (readiness).
# The binary runs as PID 1 and handles SIGTERM itself: it stops accepting and lets requests in
# flight finish (server/src/startup.rs).
ENTRYPOINT ["enrollflow"]
CMD ["serve"]
