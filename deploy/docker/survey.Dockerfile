# syntax=docker/dockerfile:1
# The survey team's service (mf-survey/server): votes, results, its own storage and migrations.
# Build from the repository root:  docker build -f deploy/docker/survey.Dockerfile -t khs-survey .
# Reads PORT, HOST, DATA_DIR, DATABASE_URL, DATABASE_SCHEMA, COOKIE_SECRET (deploy/README.md).

# Its workspace, the workspaces it depends on (read from the package.json files) and the lock file: nothing else.
FROM node:24.21-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY content/ content/
COPY contracts/ contracts/
COPY libs/env-integer/ libs/env-integer/
COPY libs/react-island/ libs/react-island/
COPY libs/observability/ libs/observability/
COPY libs/team-service/ libs/team-service/
COPY mf-survey/ mf-survey/
COPY tooling/deploy/ tooling/deploy/
COPY tooling/rspack-preset/ tooling/rspack-preset/
COPY tooling/stack/ tooling/stack/
COPY tooling/static-server/ tooling/static-server/
RUN npm ci --workspace mf-survey --omit=dev --no-audit --no-fund

FROM node:24.21-bookworm-slim
LABEL org.opencontainers.image.title="khs-survey" khs.workspace="mf-survey"
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4320 DATA_DIR=/data
# tsx runs the TypeScript sources (the version of the root's lock file); /data is the one writable folder.
RUN npm install --global tsx@4.23.15 --no-audit --no-fund && mkdir /data && chown node:node /data
COPY --from=install /app /app
WORKDIR /app/mf-survey
USER node
EXPOSE 4320
VOLUME /data
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["tsx", "server/src/main.ts"]
