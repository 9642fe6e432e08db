# syntax=docker/dockerfile:1
# The embedded Typesense-protocol search server (search-engine/), for a site that runs it instead
# of Typesense: its supervisor keeps the server process (HTTP thread and search workers) running.
# Build from the repository root:  docker build -f deploy/docker/search-engine.Dockerfile -t khs-search-engine .
# Reads TYPESENSE_API_KEY, TYPESENSE_SEARCH_API_KEY, SEARCH_WORKERS and the limits of search-engine/README.md.

# Compiled into self-contained bundles (search-engine/scripts/build-server.mjs): the image needs no node_modules.
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY libs/env-integer/ libs/env-integer/
COPY libs/observability/ libs/observability/
COPY search-engine/ search-engine/
RUN npm ci --workspace search-engine --no-audit --no-fund && npm run build --workspace search-engine

FROM node:24.21-bookworm-slim
LABEL org.opencontainers.image.title="khs-search-engine" khs.workspace="search-engine"
ENV NODE_ENV=production SEARCH_HOST=0.0.0.0 SEARCH_PORT=8108 SEARCH_DATA_DIR=/data
RUN mkdir /data && chown node:node /data
COPY --from=build /app/search-engine/dist /app/dist
WORKDIR /app
USER node
EXPOSE 8108
VOLUME /data
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.SEARCH_PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/supervise.js"]
