# syntax=docker/dockerfile:1
# The static origin of the mf-watchlist remote: its build (browser and server containers, mf-manifest.json,
# precompressed copies) served by nginx as its CDN would. Or upload the build to a CDN instead:
# `npm run deploy -w mf-watchlist -- --to <the CDN's folder>` (tooling/deploy/README.md, "Deploy and rollback").
# Build from the repository root:  docker build -f deploy/docker/mf-watchlist-origin.Dockerfile -t khs-mf-watchlist-origin .
# Reads ORIGIN_PORT (default 8080; compose sets 4311, the port browsers and the shell both use).

# The remote's workspace and its workspace dependencies only.
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY content/ content/
COPY contracts/ contracts/
COPY libs/env-integer/ libs/env-integer/
COPY libs/react-island/ libs/react-island/
COPY libs/observability/ libs/observability/
COPY libs/team-service/ libs/team-service/
COPY mf-watchlist/ mf-watchlist/
COPY tooling/deploy/ tooling/deploy/
COPY tooling/rspack-preset/ tooling/rspack-preset/
COPY tooling/stack/ tooling/stack/
COPY tooling/static-server/ tooling/static-server/
RUN npm ci --workspace mf-watchlist --include-workspace-root --no-audit --no-fund && npm run build --workspace mf-watchlist

FROM nginxinc/nginx-unprivileged:1.29-alpine
LABEL org.opencontainers.image.title="khs-mf-watchlist-origin" khs.workspace="mf-watchlist"
ENV ORIGIN_PORT=8080
COPY deploy/nginx/remote-origin.conf.template /etc/nginx/templates/default.conf.template
COPY --from=build /app/mf-watchlist/dist /usr/share/nginx/html
USER nginx
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["sh", "-c", "wget -q -O /dev/null http://127.0.0.1:${ORIGIN_PORT}/mf-manifest.json"]
