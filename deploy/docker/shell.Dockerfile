# syntax=docker/dockerfile:1
# The shell: renders every page, embeds the remotes' islands, proxies the team services.
# Build from the repository root:  docker build -f deploy/docker/shell.Dockerfile -t khs-shell .
# Reads the variables of shell/README.md's "Configuration" (deploy/README.md lists what compose sets).

# The client runtime (rspack): the shell's workspace and its workspace dependencies only.
FROM node:24.21-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY content/ content/
COPY contracts/ contracts/
COPY libs/env-integer/ libs/env-integer/
COPY libs/search-nodes/ libs/search-nodes/
COPY libs/react-island/ libs/react-island/
COPY libs/observability/ libs/observability/
COPY libs/team-service/ libs/team-service/
COPY shell/ shell/
COPY tooling/deploy/ tooling/deploy/
COPY tooling/rspack-preset/ tooling/rspack-preset/
COPY tooling/stack/ tooling/stack/
COPY tooling/static-server/ tooling/static-server/
RUN npm ci --workspace shell --include-workspace-root --no-audit --no-fund && npm run build --workspace shell

FROM node:24.21-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY content/ content/
COPY contracts/ contracts/
COPY libs/env-integer/ libs/env-integer/
COPY libs/search-nodes/ libs/search-nodes/
COPY libs/react-island/ libs/react-island/
COPY libs/observability/ libs/observability/
COPY libs/team-service/ libs/team-service/
COPY shell/ shell/
COPY tooling/deploy/ tooling/deploy/
COPY tooling/rspack-preset/ tooling/rspack-preset/
COPY tooling/stack/ tooling/stack/
COPY tooling/static-server/ tooling/static-server/
RUN npm ci --workspace shell --omit=dev --no-audit --no-fund
# Every slice's manifest (nothing else of the slices): the registry discovers the slices, their
# remotes, services and edge policies from them (scripts/deploy.test.ts holds this list to the slices).
COPY contact/slice.json contact/slice.json
COPY mf-search/slice.json mf-search/slice.json
COPY mf-survey/slice.json mf-survey/slice.json
COPY mf-watchlist/slice.json mf-watchlist/slice.json
COPY mf-widgets/slice.json mf-widgets/slice.json
# The modules the manifests declare for the shell to run at start (`remote.browserSettings`: the
# search slice's reads where browsers search); they import only contracts and libs/, installed with
# the shell (scripts/deploy.test.ts holds this list to the manifests too).
COPY mf-search/settings/browserSettings.ts mf-search/settings/browserSettings.ts

FROM node:24.21-bookworm-slim
LABEL org.opencontainers.image.title="khs-shell" khs.workspace="shell"
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4300 DATA_DIR=/data
# tsx runs the TypeScript sources (the version of the root's lock file); /data is the one writable folder.
RUN npm install --global tsx@4.23.15 --no-audit --no-fund && mkdir /data && chown node:node /data
COPY --from=install /app /app
COPY --from=build /app/shell/dist /app/shell/dist
WORKDIR /app/shell
USER node
EXPOSE 4300
VOLUME /data
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["tsx", "src/server/main.ts"]
