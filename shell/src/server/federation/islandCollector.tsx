import { Readable } from 'node:stream';
import { createContext, type ReactElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { FastifyReply } from 'fastify';
import { markPageStart } from '../delivery/pageCache.js';
import { ISLAND_SERVER_STATE_ATTRIBUTE, type IslandRenderResult, type PageConfig } from 'contracts';
import { currentRequestVersions, type RequestVersions } from './requestVersions.js';
import { serializeJsonForHtml } from './serializeJsonForHtml.js';
import type { IslandOutcome, IslandPage, IslandRequest, ServerIslands } from './serverIslands.js';

/**
 * Collects the islands of one page render. `Island` registers itself and renders a marker in
 * its element; after the page is rendered every island is rendered by its remote (all at once)
 * and the markers are replaced.
 */
export class IslandCollector {
  readonly requests: IslandRequest[] = [];
  readonly placeholders: Array<ReactNode | RawPlaceholder> = [];

  /**
   * @param remoteEntryUrl the browser entry URL of a remote's current build, when the server
   * knows it (entries are content-hashed, so only the loaded manifest names them). Default none.
   */
  constructor(
    readonly remoteEntryUrl: (remote: string) => string | undefined = () => undefined,
    /**
     * The manifest URL the page must give the browser for a remote: the build the server rendered
     * it with (`versions/<buildVersion>/mf-manifest.json`), so a deploy between the HTML and the
     * scripts changes nothing on this page. Default: none (the configured, live manifest).
     */
    readonly pinnedManifestUrl: (remote: string) => string | undefined = () => undefined,
  ) {}

  /** Registers an island; `placeholder` is a React node, or ready HTML (`{ html }`, from a service's page fragment). */
  add(request: IslandRequest, placeholder: ReactNode | RawPlaceholder): string {
    this.requests.push(request);
    this.placeholders.push(placeholder);
    return islandMarker(this.requests.length - 1);
  }
}

/** A placeholder given as HTML (a team service rendered it), inserted as it is. */
export interface RawPlaceholder {
  rawHtml: string;
}

function isRawPlaceholder(placeholder: ReactNode | RawPlaceholder): placeholder is RawPlaceholder {
  return typeof placeholder === 'object' && placeholder !== null && typeof (placeholder as Partial<RawPlaceholder>).rawHtml === 'string';
}

/** Serialised state per render result: a remote that reuses a result (micro-caching) is serialised once. */
const serializedStates = new WeakMap<object, string>();

function stateScript(result: IslandRenderResult): string {
  let json = serializedStates.get(result);
  if (json === undefined) {
    json = serializeJsonForHtml({ state: result.state ?? null });
    serializedStates.set(result, json);
  }
  return `<script type="application/json" ${ISLAND_SERVER_STATE_ATTRIBUTE}="">${json}</script>`;
}

/** After an island with nothing to show: the browser leaves it alone (contracts, `ISLAND_SERVER_STATE_ATTRIBUTE`). */
const EMPTY_STATE_SCRIPT = `<script type="application/json" ${ISLAND_SERVER_STATE_ATTRIBUTE}="">{"state":null,"empty":true}</script>`;

function islandMarker(index: number): string {
  return `<!--khs-island:${index}-->`;
}

/** Set while a page renders with server islands; `Island` renders a marker then. */
export const IslandCollectorContext = createContext<IslandCollector | null>(null);

/** How a page's headers go out: decided when the head is sent, before every island is known. */
export interface PageStart {
  /** Islands were still rendering when the head went out: the rest of the page follows as each island comes. */
  streamed: boolean;
  /** An island already holds its placeholder (its remote failed or ran past the budget). */
  degraded: boolean;
  /** Remotes of this page's islands the shell knows to be failing (`ServerIslands.failingRemotes`). */
  failingRemotes: readonly string[];
}

/** A page as `streamPageWithIslands` gives it: the whole document, or a stream of it, and how it started. */
export interface StreamedPage {
  body: string | Readable;
  start: PageStart;
}

export interface StreamPageOptions {
  /**
   * How long the head waits for the islands: all settled by then, `body` is the whole document.
   * Default `islands.headBudgetMs` (`PAGE_HEAD_BUDGET_MS`); `Infinity` waits for every island.
   */
  headBudgetMs?: number;
  /** Told each island's time once every island settled (the end of a streamed page). Default none. */
  onTimings?: ((timings: IslandTiming[]) => void) | undefined;
}

/**
 * Renders a full HTML document whose islands are rendered on the server by their remotes, and
 * streams it: the head (the islands' styles and script preloads, from the remotes' manifests, and
 * the page config) and everything up to the first island not yet rendered go out at once, then
 * each island's HTML with what follows it, in document order, as soon as it is rendered (a page
 * read without scripts reads in order; no placement script). An island whose remote fails or
 * runs past the budget keeps its small placeholder (the browser mounts it); the page never fails
 * because of one. When every island is rendered within the head budget, the body is the whole
 * document as one string (a shared cache keeps whole bytes: `delivery/pageCache.ts`).
 */
export async function streamPageWithIslands(
  page: ReactElement,
  islands: ServerIslands,
  context: Omit<IslandPage, 'versions'>,
  options: StreamPageOptions = {},
): Promise<StreamedPage> {
  // The build of each remote this page renders and pins, decided once, before anything renders:
  // the request's choice (a preview, a canary side), else the live build as it is now.
  const versions = pageVersions(islands, context.config, currentRequestVersions());
  const federation = islands.federation;
  const collector = new IslandCollector(
    (remote) => federation.browserEntryUrl(remote, versions.get(remote)),
    (remote) => (versions.get(remote) ? federation.pinnedManifestUrl(remote, versions.get(remote)) : undefined),
  );
  const html = `<!doctype html>${renderToString(<IslandCollectorContext.Provider value={collector}>{page}</IslandCollectorContext.Provider>)}`;
  const { requests } = collector;
  const failingRemotes = requests.length > 0 ? islands.failingRemotes(requests) : [];
  const pending = islands.renderEach(requests, { ...context, versions });
  const settled: Array<IslandOutcome | undefined> = requests.map(() => undefined);
  pending.forEach((outcome, index) => void outcome.then((done) => (settled[index] = done)));
  const everyIsland = Promise.all(pending).then((outcomes) => {
    options.onTimings?.(
      outcomes.map((outcome, index) => ({ name: requests[index]!.name, ms: outcome.ms, ok: outcome.ok, reused: outcome.ok && outcome.reused === true })),
    );
    return outcomes;
  });
  const outcomes = await withinHeadBudget(everyIsland, options.headBudgetMs ?? islands.headBudgetMs);
  // [before the first island, its index, its tag, after it, the next index, …]. An island element
  // is a div, or a span inside a sentence (`Island inline`).
  const parts = html.split(/<!--khs-island:(\d+)--><\/(div|span)>/);
  const islandHtml = (index: number, tag: string, outcome: IslandOutcome): string => {
    if (!outcome.ok) {
      const placeholder = collector.placeholders[index];
      return `${isRawPlaceholder(placeholder) ? placeholder.rawHtml : renderToString(<>{placeholder as ReactNode}</>)}</${tag}>`;
    }
    return `${outcome.result.html}</${tag}>${outcome.empty ? EMPTY_STATE_SCRIPT : stateScript(outcome.result)}`;
  };
  if (outcomes) {
    // Whole: the rendered islands' styles and scripts only (a failed island mounts later and loads its
    // own; an empty one loads nothing).
    const rendered = requests.filter((_request, index) => outcomes[index]!.ok && !outcomes[index]!.empty);
    let whole = withHead(parts[0]!, islands, rendered, versions);
    for (let part = 1; part < parts.length; part += 3) {
      whole += islandHtml(Number(parts[part]), parts[part + 1]!, outcomes[Number(parts[part])]!) + parts[part + 2]!;
    }
    return { body: whole, start: { streamed: false, degraded: outcomes.some((outcome) => !outcome.ok), failingRemotes } };
  }
  // Streamed: the head names every island's styles and scripts, before any has rendered.
  const head = withHead(parts[0]!, islands, requests, versions);
  async function* chunks(): AsyncGenerator<Buffer> {
    let ready = head;
    for (let part = 1; part < parts.length; part += 3) {
      const index = Number(parts[part]);
      // Islands already rendered go out with what precedes them, in one chunk (one flush).
      if (settled[index] === undefined && ready) {
        yield Buffer.from(ready);
        ready = '';
      }
      ready += islandHtml(index, parts[part + 1]!, await pending[index]!) + parts[part + 2]!;
    }
    yield Buffer.from(ready);
  }
  return {
    body: Readable.from(chunks(), { objectMode: false }),
    start: { streamed: true, degraded: settled.some((outcome) => outcome && !outcome.ok), failingRemotes },
  };
}

/**
 * Renders a full HTML document with its islands, waiting for every island (no streaming): tests
 * (every page of the shell streams, the team services' too: `ShellCore.streamIslandPage`).
 */
export async function renderPageWithIslands(
  page: ReactElement,
  islands: ServerIslands,
  context: Omit<IslandPage, 'versions'>,
  onTimings?: (timings: IslandTiming[]) => void,
): Promise<string> {
  const { body } = await streamPageWithIslands(page, islands, context, { headBudgetMs: Number.POSITIVE_INFINITY, ...(onTimings ? { onTimings } : {}) });
  return body as string;
}

/** Every island's outcome when all settle within `budgetMs`, else undefined (the page streams). */
async function withinHeadBudget(everyIsland: Promise<IslandOutcome[]>, budgetMs: number): Promise<IslandOutcome[] | undefined> {
  if (budgetMs === Number.POSITIVE_INFINITY) return everyIsland;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), budgetMs)));
  try {
    return await Promise.race([everyIsland, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The document up to its first island with the islands' script preloads and styles in the head.
 * The first view's island scripts start loading with the page, not after the shell's runtime
 * asked for them (classic scripts, as the runtime adds them); at low priority, so they take the
 * bandwidth the page's largest paint (its image) leaves. The styles come before any script runs:
 * no flash of unstyled remote markup.
 */
function withHead(beforeFirstIsland: string, islands: ServerIslands, requests: IslandRequest[], versions: ReadonlyMap<string, string>): string {
  const preloads = islands
    .firstViewScripts(requests, versions)
    .map((href) => `<link rel="preload" as="script" fetchpriority="low" href="${escapeAttribute(href)}"/>`)
    .join('');
  const styles = islands
    .stylesheets(requests, versions)
    .map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}"/>`)
    .join('');
  return styles || preloads ? beforeFirstIsland.replace('</head>', `${preloads}${styles}</head>`) : beforeFirstIsland;
}

/**
 * The build version a page renders and pins per remote: the request's choice, else the live
 * build when the browser can load it from its own folder (`ServerFederation.pinnableLiveVersion`).
 * A remote with neither is absent (rendered live, the browser reads the live manifest, as before).
 */
function pageVersions(islands: ServerIslands, config: PageConfig, requested: RequestVersions | undefined): Map<string, string> {
  const versions = new Map<string, string>();
  for (const { name } of config.remotes) {
    const version = requested?.choices.get(name)?.version ?? islands.federation.pinnableLiveVersion(name);
    if (version) versions.set(name, version);
  }
  return versions;
}

/**
 * The page's body once its head can go, its cache headers set by the streamed-page rule
 * (`markPageStart`) and, when streamed, `X-Accel-Buffering: no` (nginx passes each chunk on).
 */
export async function streamPage(reply: FastifyReply, rendering: Promise<StreamedPage>): Promise<string | Readable> {
  const { body, start } = await rendering;
  markPageStart(reply, start);
  return body;
}

/** `onTimings` sending the islands' times as `Server-Timing` (with `ISLAND_SERVER_TIMING=on`: the head then waits for every island). */
export function serverTimingOf(islands: ServerIslands, reply: FastifyReply): ((timings: IslandTiming[]) => void) | undefined {
  if (!islands.serverTiming) return undefined;
  return (timings) => {
    if (timings.length > 0 && !reply.raw.headersSent) reply.header('Server-Timing', serverTimingHeader(timings));
  };
}

/** How long one island took on the server. */
export interface IslandTiming {
  name: string;
  ms: number;
  ok: boolean;
  /** Served from the shell's render cache (the module allowed reuse). */
  reused?: boolean;
}

/** `Server-Timing` header value: one entry per island, e.g. `island;desc="remote/Module";dur=12.3`. */
export function serverTimingHeader(timings: IslandTiming[]): string {
  return timings
    .map((timing) => `island;desc="${timing.name}${timing.ok ? (timing.reused ? ' (reused)' : '') : ' (placeholder)'}";dur=${timing.ms.toFixed(1)}`)
    .join(', ');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
