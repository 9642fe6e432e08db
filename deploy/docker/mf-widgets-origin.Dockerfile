# syntax=docker/dockerfile:1
# The static origin of the mf-widgets remote: its build (browser and server containers, mf-manifest.json,
# precompressed copies) served by nginx as its CDN would. Or upload the build to a CDN instead:
# `npm run deploy -w mf-widgets -- --to <the CDN's folder>` (tooling/deploy/README.md, "Deploy and rollback").
# Build from the repository root:  docker build -f deploy/docker/mf-widgets-origin.Dockerfile -t khs-mf-widgets-origin .
# Reads ORIGIN_PORT (default 8080; compose sets 4313, the port browsers and the shell both use).

# The remote's workspace and its workspace dependencies only.
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY content/ content/
COPY contracts/ contracts/
COPY mf-widgets/ mf-widgets/
COPY tooling/deploy/ tooling/deploy/
COPY tooling/rspack-preset/ tooling/rspack-preset/
COPY tooling/static-server/ tooling/static-server/
RUN npm ci --workspace mf-widgets --include-workspace-root --no-audit --no-fund && npm run build --workspace mf-widgets

FROM nginxinc/nginx-unprivileged:1.29-alpine
LABEL org.opencontainers.image.title="khs-mf-widgets-origin" khs.workspace="mf-widgets"
ENV ORIGIN_PORT=8080
COPY deploy/nginx/remote-origin.conf.template /etc/nginx/templates/default.conf.template
COPY --from=build /app/mf-widgets/dist /usr/share/nginx/html
USER nginx
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["sh", "-c", "wget -q -O /dev/null http://127.0.0.1:${ORIGIN_PORT}/mf-manifest.json"]
