import { createContext, type ReactElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLAND_SERVER_STATE_ATTRIBUTE, type IslandRenderResult, type PageConfig } from 'contracts';
import { currentRequestVersions, type RequestVersions } from './requestVersions.js';
import { serializeJsonForHtml } from './serializeJsonForHtml.js';
import type { IslandPage, IslandRequest, ServerIslands } from './serverIslands.js';

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

/**
 * Renders a full HTML document whose islands are rendered on the server by their remotes. An
 * island whose remote fails keeps its small placeholder (the browser mounts it as before);
 * the page never fails because of one.
 */
export async function renderPageWithIslands(
  page: ReactElement,
  islands: ServerIslands,
  context: Omit<IslandPage, 'versions'>,
  onTimings?: (timings: IslandTiming[]) => void,
): Promise<string> {
  // The build of each remote this page renders and pins, decided once, before anything renders:
  // the request's choice (a preview, a canary side), else the live build as it is now.
  const versions = pageVersions(islands, context.config, currentRequestVersions());
  const federation = islands.federation;
  const collector = new IslandCollector(
    (remote) => federation.browserEntryUrl(remote, versions.get(remote)),
    (remote) => (versions.get(remote) ? federation.pinnedManifestUrl(remote, versions.get(remote)) : undefined),
  );
  const html = `<!doctype html>${renderToString(<IslandCollectorContext.Provider value={collector}>{page}</IslandCollectorContext.Provider>)}`;
  const outcomes = await islands.renderAll(collector.requests, { ...context, versions });
  onTimings?.(
    outcomes.map((outcome, index) => ({ name: collector.requests[index]!.name, ms: outcome.ms, ok: outcome.ok, reused: outcome.ok && outcome.reused === true })),
  );
  const rendered = collector.requests.filter((_request, index) => { const outcome = outcomes[index]!; return outcome.ok && !outcome.empty; });
  // The first view's island scripts start loading with the page, not after the shell's runtime
  // asked for them (classic scripts, as the runtime adds them); at low priority, so they take
  // the bandwidth the page's largest paint (its image) leaves.
  const preloads = islands
    .firstViewScripts(rendered, versions)
    .map((href) => `<link rel="preload" as="script" fetchpriority="low" href="${escapeAttribute(href)}"/>`)
    .join('');
  const styles = islands
    .stylesheets(rendered, versions)
    .map((href) => `<link rel="stylesheet" href="${escapeAttribute(href)}"/>`)
    .join('');
  // An island element is a div, or a span inside a sentence (`Island inline`).
  const withIslands = html.replace(/<!--khs-island:(\d+)--><\/(div|span)>/g, (_match, index: string, tag: string) => {
    const outcome = outcomes[Number(index)]!;
    if (!outcome.ok) {
      const placeholder = collector.placeholders[Number(index)];
      return `${isRawPlaceholder(placeholder) ? placeholder.rawHtml : renderToString(<>{placeholder as ReactNode}</>)}</${tag}>`;
    }
    return `${outcome.result.html}</${tag}>${outcome.empty ? EMPTY_STATE_SCRIPT : stateScript(outcome.result)}`;
  });
  // The islands' own styles, before any script runs: no flash of unstyled remote markup.
  return styles || preloads ? withIslands.replace('</head>', `${preloads}${styles}</head>`) : withIslands;
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
