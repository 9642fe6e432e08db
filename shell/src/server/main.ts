// Starts the shell: database, pages, the edge to the team services, and the settings the slices'
// islands need from the running site (each slice's own module reads them, `@khs/stack/browser-settings`).
// Configuration: environment variables, see README "Configuration".
import type { FastifyInstance } from 'fastify';
import { readShellConfig, ShellConfigError, type ShellConfig } from './config.js';
import { buildShellApp, type FeatureRegistration } from './app.js';
import { createLiveContentStore } from './content/contentStore.js';
import { openDatabase } from './database/index.js';
import type { Database } from './database/types.js';
import { productFeatures } from './productFeatures.js';
import { createServerIslands, readServerIslandSettings } from './federation/serverIslandsFromEnv.js';
import { previewSelectionPlugin } from './federation/preview/previewSelectionPlugin.js';
import { healthRoutes } from './health/healthRoutes.js';
import { devLoopFeature } from './dev/devLoopRoutes.js';
import { IslandFailureCounts, type IslandFailureStore } from './islandFailures/islandFailureCounts.js';
import { createShellCanary, readCanaryRuleSettings, type ShellCanary } from './canary/index.js';
import { currentRequestVersions } from './federation/requestVersions.js';
import { MemoryCanaryEndStore } from './canary/canaryEndStore.js';
import { serverIslandFailure } from './federation/failureLog.js';
import { readBrowserSettings } from '@khs/stack/browser-settings';
import { createLinkOriginResolver, type LinkOriginResolver } from './security/linkOrigin.js';
import { metricsEnabled, metricsText, startProcessLogs, startProcessMetrics, startTracing } from '@khs/observability';
import { islandRenderMetrics, withBrowserReportMetrics } from './observability/shellMetrics.js';

const log = (message: string) => console.log(`[shell] ${message}`);

type ServerIslandsOrNone = ReturnType<typeof createServerIslands>;

/**
 * JSON lines (part, level, message, trace id) for every line this process prints; metrics; traces
 * only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
async function startObservability() {
  const logger = startProcessLogs('shell');
  startProcessMetrics('shell');
  const tracing = await startTracing({ part: 'shell' });
  // Remotes' server code runs in this process: a stray rejection in it (a render that outlived its
  // budget, say) is logged, and the site keeps answering.
  process.on('unhandledRejection', (reason) => console.error('[shell] unhandled rejection (the server keeps running):', reason));
  return { logger, tracing };
}

/**
 * What the slices' islands need from the running site (their own variables, read by their own
 * modules, declared in their manifests): passed through into every page's config; a malformed
 * variable stops the start.
 */
async function sliceBrowserSettings() {
  const settings = await readBrowserSettings(process.env);
  if (settings.problems.length > 0) throw new ShellConfigError(settings.problems);
  for (const notice of settings.notices) log(notice);
  return settings;
}

/**
 * Island failures from browsers' beacons and from server renders, and page views per remote
 * build, for /health/remotes: every instance's in PostgreSQL, else this process's memory.
 */
function islandFailureStore(database: Database): IslandFailureStore {
  const counts = database.islandFailures ?? new IslandFailureCounts();
  log(`island failure counts: ${database.islandFailures ? 'shared by every instance (PostgreSQL)' : "this process's memory"}`);
  return metricsEnabled() ? withBrowserReportMetrics(counts) : counts;
}

/**
 * The remotes' server builds, rendering islands. Page views are the browsers' page reports (a page
 * served from a shared cache is a view too, and one the shell's server never renders); a server
 * render failure counts for the build the server has loaded for that remote, the one it rendered
 * (a render past its budget only for the health view: `serverIslandFailure`).
 */
function serverIslands(config: ShellConfig, failureCounts: IslandFailureStore): ServerIslandsOrNone {
  const islands: ServerIslandsOrNone = createServerIslands(config.remotes, readServerIslandSettings(), (remote, stage, error) => {
    // The build this request chose (a canary side, a preview), else the live one the server has loaded.
    const version = currentRequestVersions()?.choices.get(remote)?.version ?? islands?.federation.liveBuildVersion(remote);
    failureCounts.recordFailure(serverIslandFailure(remote, stage, error, version));
  });
  if (islands && metricsEnabled()) {
    const federation = islands.federation;
    islands.onIslandRendered = islandRenderMetrics((remote) => federation.liveBuildVersion(remote));
  }
  return islands;
}

/** The product's features, the operators' health view and the development loop's routes. */
function shellFeatures(options: {
  config: ShellConfig;
  database: Database;
  linkOrigin: LinkOriginResolver;
  failureCounts: IslandFailureStore;
  canary: ShellCanary;
  islands: ServerIslandsOrNone;
}): FeatureRegistration[] {
  const { config, database, linkOrigin, failureCounts, canary, islands } = options;
  return [
    ...productFeatures({ config, database, linkOrigin }),
    {
      plugin: healthRoutes,
      options: {
        remotes: config.remotes,
        operatorToken: config.operatorToken,
        failureCounts,
        metrics: metricsText,
        onReport: () => canary.monitor.notify(),
        canaryOf: (remote: string) => canary.facts(remote),
        ...(islands ? { pollStates: () => islands.federation.pollStates() } : {}),
      },
    },
    // `npm run dev -w <remote>` only (KHS_DEV_LOOP_TOKEN); none in production.
    ...devLoopFeature(islands?.federation, config.remotes.map((remote) => remote.name)),
  ];
}

/** The lines a started shell prints: a machine-readable one first (test harnesses read it), then the human ones. */
function announce(config: ShellConfig, port: number, listeningOrigin: string): void {
  const url = `http://${config.host}:${port}/`;
  const baseUrl = config.publicBaseUrl ?? listeningOrigin;
  console.log(JSON.stringify({ event: 'listening', url, baseUrl }));
  console.log(`KHS competence site is running at ${url}`);
  console.log(
    `Links in sharing URLs and PDFs use ${baseUrl}` +
      (config.publicBaseUrl ? ' (PUBLIC_BASE_URL)' : ' (the listening address: set PUBLIC_BASE_URL for a public site)') +
      (config.allowedHosts.length > 0 ? `, or the request's host when it is one of ALLOWED_HOSTS (${config.allowedHosts.join(', ')})` : ''),
  );
  log(config.operatorToken ? `operators' view of the remotes: ${url}health/remotes (OPERATOR_TOKEN)` : '/health/remotes is off: set OPERATOR_TOKEN to open it');
  if (config.trustProxy !== false) log(`trusting X-Forwarded-* from: ${[config.trustProxy].flat().join(', ')} (TRUST_PROXY)`);
}

/**
 * How long a stop lets requests in flight finish before it cuts their connections (ms): a client
 * that stopped reading a streamed page would otherwise hold the stop until the supervisor's SIGKILL
 * (its `stopTimeoutMs`, 5 s), with nothing closed in order.
 */
const STOP_DRAIN_MS = 3_000;

/** `app.close()` (no new connections, the requests in flight finish), cutting what is still open after `STOP_DRAIN_MS`. */
async function closeDrained(app: FastifyInstance): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), STOP_DRAIN_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/** Closes everything in order on SIGINT/SIGTERM, once. */
function stopOnSignals(closers: (() => unknown)[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    for (const close of closers) await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function main(): Promise<void> {
  const { logger, tracing } = await startObservability();
  const config = readShellConfig();
  if (config.usesDevelopmentCookieSecret) {
    log('COOKIE_SECRET is not set: using the public development secret. Set it for any real deployment.');
  }
  const browserSettings = await sliceBrowserSettings();
  const content = createLiveContentStore(config.contentDir);
  log(`articles from ${config.contentDir} (watched)`);
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  log(`database: ${database.dialect}`);
  // Without PUBLIC_BASE_URL, links use the address the server listens on (known after listen).
  let listeningOrigin = '';
  const linkOrigin = createLinkOriginResolver({
    publicBaseUrl: config.publicBaseUrl ?? (() => listeningOrigin),
    allowedHosts: config.allowedHosts,
  });
  const failureCounts = islandFailureStore(database);
  const islands = serverIslands(config, failureCounts);
  // Canaries: the origins' splits, the rule over the shared counts, ends shared like the counts.
  const canary = createShellCanary({
    remotes: config.remotes,
    counts: failureCounts,
    ends: database.canaryEnds ?? new MemoryCanaryEndStore(),
    rule: readCanaryRuleSettings(),
  });
  await canary.start();
  const { app } = await buildShellApp({
    config,
    content,
    browserSettings,
    islands,
    linkOrigin,
    loggerInstance: logger,
    // Fastify's own line per request only when asked for (LOG_LEVEL): two lines a request cost.
    logRequests: Boolean(process.env.LOG_LEVEL),
    rateLimitCounters: database.rateLimitCounters,
    // Most general first: the canary side, then a preview (last) overrides it for its one browser.
    versionSelection: [canary.plugin, ...(config.remotePreviewSecret ? [previewSelectionPlugin(config.remotePreviewSecret)] : [])],
    features: shellFeatures({ config, database, linkOrigin, failureCounts, canary, islands }),
  });
  // An inherited socket (LISTEN_FD): Fastify hands its options to Node's `server.listen`, which takes `fd`.
  const listenOn = config.listenFd === undefined ? { host: config.host, port: config.port } : { fd: config.listenFd, host: config.host };
  await app.listen(listenOn);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  listeningOrigin = `http://${/^(0\.0\.0\.0|::)$/.test(config.host) ? '127.0.0.1' : config.host}:${port}`;
  announce(config, port, listeningOrigin);
  stopOnSignals([() => closeDrained(app), () => canary.stop(), () => content.close(), () => islands?.federation.close(), () => database.close(), () => tracing.shutdown()]);
}

main().catch((error: unknown) => {
  console.error(error instanceof ShellConfigError ? error.message : error);
  process.exit(1);
});
