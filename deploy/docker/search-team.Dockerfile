# syntax=docker/dockerfile:1
# The search team's service (mf-search/server): the insights collector with its own storage, and the
# indexer that keeps the articles collection in sync with the content folder.
# Build from the repository root:  docker build -f deploy/docker/search-team.Dockerfile -t khs-search-team .
# Reads PORT, HOST, DATA_DIR, DATABASE_URL, DATABASE_SCHEMA, SEARCH_TEAM_EDGE_KEY, CONTENT_DIR and the
# search server's TYPESENSE_HOST/PORT/PROTOCOL (or TYPESENSE_NODES) and admin TYPESENSE_API_KEY (deploy/README.md).

# Its workspace, the workspaces it depends on (read from the package.json files) and the lock file: nothing else.
FROM node:24.21-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY contracts/ contracts/
COPY content/ content/
COPY libs/env-integer/ libs/env-integer/
COPY libs/search-nodes/ libs/search-nodes/
COPY libs/react-island/ libs/react-island/
COPY libs/observability/ libs/observability/
COPY libs/team-service/ libs/team-service/
COPY mf-search/ mf-search/
COPY search-engine/ search-engine/
COPY tooling/deploy/ tooling/deploy/
COPY tooling/rspack-preset/ tooling/rspack-preset/
COPY tooling/stack/ tooling/stack/
COPY tooling/static-server/ tooling/static-server/
RUN npm ci --workspace mf-search --omit=dev --no-audit --no-fund

FROM node:24.21-bookworm-slim
LABEL org.opencontainers.image.title="khs-search-team" khs.workspace="mf-search"
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4322 DATA_DIR=/data
# tsx runs the TypeScript sources (the version of the root's lock file); /data is the one writable folder.
RUN npm install --global tsx@4.23.15 --no-audit --no-fund && mkdir /data && chown node:node /data
COPY --from=install /app /app
WORKDIR /app/mf-search
USER node
EXPOSE 4322
VOLUME /data
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["tsx", "server/src/main.ts"]
