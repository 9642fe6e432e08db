import { withSpan } from '@khs/observability';
import { parseIslandName, type IslandContentReader, type IslandHydrateTrigger, type IslandRenderResult, type PageConfig } from 'contracts';
import type { ServerIslandStage } from 'contracts';
import { FailureLog } from './failureLog.js';
import { ServerIslandError, type ServerFederation } from './serverFederation.js';

/** The page being rendered; `versions`: the build version chosen per remote for this request (absent or null: live). */
export interface IslandPage {
  config: PageConfig;
  url: string;
  /** The site's content the islands may read (`IslandServerContext.content`). Default none. */
  content?: IslandContentReader;
  versions?: ReadonlyMap<string, string | null>;
}

/** One island a page asked for. */
export interface IslandRequest {
  name: string;
  props: Record<string, unknown>;
  /** When the browser hydrates it; absent means at once. */
  hydrate?: IslandHydrateTrigger;
}

/** A rendered island (`empty`: it had nothing to show, its `serverProps` said `null`), or why it holds a placeholder. */
export type IslandOutcome = ({ ok: true; result: IslandRenderResult; reused?: boolean; empty?: boolean } | { ok: false; stage: ServerIslandStage }) & {
  /** Load plus render time, milliseconds. */
  ms: number;
};

export interface ServerIslandsOptions {
  federation: ServerFederation;
  /** Load plus render of one island must finish within this; otherwise the placeholder. */
  budgetMs: number;
  failures?: FailureLog;
  /** Sends each page's island render times as a `Server-Timing` header (benchmarks, DevTools). Default false. */
  serverTiming?: boolean;
  /** How long a page's headers wait for its islands before the page streams (`headBudgetMs`). Default `DEFAULT_HEAD_BUDGET_MS`. */
  headBudgetMs?: number;
  /**
   * Called once per page with the remotes whose islands rendered on it and the build versions the
   * page chose (page views per remote build, the denominator of failure rates). Default: none.
   */
  onPageRendered?: (remotes: ReadonlySet<string>, versions?: ReadonlyMap<string, string | null>) => void;
}

/** Reused renders kept at most (oldest dropped first). */
const RENDER_CACHE_ENTRIES = 2000;
/** How long a remote whose latest island render failed counts as failing (`failingRemotes`). */
export const KNOWN_FAILING_FOR_MS = 30_000;
/** Default `PAGE_HEAD_BUDGET_MS`: short enough for a first byte within 50 ms, long enough for warm islands. */
export const DEFAULT_HEAD_BUDGET_MS = 20;

/** The render of an island with nothing to show (`serverProps` said `null`). */
const EMPTY_RESULT: IslandRenderResult = Object.freeze({ html: '' });

/** Renders a page's islands with the remotes' server builds, each alone and within the budget. */
export class ServerIslands {
  readonly failures: FailureLog;
  /** Told of each island's outcome with the build version the page chose for its remote (metrics). Default: none. */
  onIslandRendered?: (remote: string, version: string | null | undefined, outcome: IslandOutcome) => void;
  /** Renders a module allowed to be reused (`cacheTtlMs`), by island, build, props and address. */
  private readonly renderCache = new Map<string, { until: number; result: IslandRenderResult }>();
  /** The live build's `dataVersion` of each island rendered so far (`IslandServerModule.dataVersion`). */
  private readonly dataVersionOf = new Map<string, () => string | undefined>();
  /** Each remote's latest island outcome on this shell (`failingRemotes`). */
  private readonly latestOutcome = new Map<string, { ok: boolean; at: number }>();

  constructor(private readonly options: ServerIslandsOptions) {
    this.failures = options.failures ?? new FailureLog();
  }

  get serverTiming(): boolean {
    return this.options.serverTiming === true;
  }

  get federation(): ServerFederation {
    return this.options.federation;
  }

  /**
   * Renders all islands at once, all within one budget (they start together: one timer and one
   * abort signal per page); never rejects.
   */
  renderAll(requests: IslandRequest[], page: IslandPage): Promise<IslandOutcome[]> {
    return Promise.all(this.renderEach(requests, page));
  }

  /**
   * Like `renderAll`, one promise per island in the requests' order, each settling as soon as its
   * island rendered or failed (a streamed page writes each as it comes); none rejects.
   */
  renderEach(requests: IslandRequest[], page: IslandPage): Array<Promise<IslandOutcome>> {
    if (requests.length === 0) return [];
    const controller = new AbortController();
    let expire: () => void = () => {};
    const budget = new Promise<'timeout'>((resolve) => (expire = () => resolve('timeout')));
    const timer = setTimeout(() => {
      controller.abort();
      expire();
    }, this.options.budgetMs);
    const outcomes = requests.map((request) => this.renderOne(request, page, controller.signal, budget));
    void Promise.all(outcomes)
      .then((settled) => {
        if (this.options.onPageRendered) {
          const rendered = new Set<string>();
          settled.forEach((outcome, index) => {
            const remote = outcome.ok ? parseIslandName(requests[index]!.name)?.remote : undefined;
            if (remote) rendered.add(remote);
          });
          if (rendered.size > 0) this.options.onPageRendered(rendered, page.versions);
        }
      })
      .finally(() => clearTimeout(timer));
    return outcomes;
  }

  /**
   * The remotes of `requests` this shell knows to be failing: their latest island render here
   * failed (an error or past the budget), less than `KNOWN_FAILING_FOR_MS` ago. A page holding one
   * of their islands is likely to be degraded, so it goes out private from its first byte.
   */
  failingRemotes(requests: IslandRequest[]): string[] {
    const now = Date.now();
    const failing = new Set<string>();
    for (const request of requests) {
      const remote = parseIslandName(request.name)?.remote;
      const latest = remote ? this.latestOutcome.get(remote) : undefined;
      if (remote && latest && !latest.ok && now - latest.at < KNOWN_FAILING_FOR_MS) failing.add(remote);
    }
    return [...failing];
  }

  /**
   * How long a page's headers wait for its islands (`PAGE_HEAD_BUDGET_MS`): every island settled by
   * then, the page goes out whole; otherwise it streams. With `serverTiming` the headers wait for
   * every island (the `Server-Timing` header names them all).
   */
  get headBudgetMs(): number {
    return this.serverTiming ? Number.POSITIVE_INFINITY : (this.options.headBudgetMs ?? DEFAULT_HEAD_BUDGET_MS);
  }

  /**
   * The data versions the live islands rendered so far declare (`IslandServerModule.dataVersion`),
   * as `island=version`, sorted: part of every shared page's version, so a page is re-tagged when
   * the data an island renders from changed. Cheap (each module answers from memory).
   */
  dataVersions(): string[] {
    const versions: string[] = [];
    for (const [island, dataVersion] of this.dataVersionOf) {
      let version: string | undefined;
      try {
        version = dataVersion();
      } catch {
        version = undefined;
      }
      if (version !== undefined) versions.push(`${island}=${version}`);
    }
    return versions.sort();
  }

  /** Stylesheets of the islands' browser builds (at the page's chosen `versions`, else live), in first-use order. */
  stylesheets(requests: IslandRequest[], versions?: ReadonlyMap<string, string | null>): string[] {
    const urls = new Set<string>();
    for (const request of requests) {
      const parsed = parseIslandName(request.name);
      if (parsed) for (const url of this.federation.stylesheets(parsed.remote, parsed.module, versions?.get(parsed.remote))) urls.add(url);
    }
    return [...urls];
  }

  /**
   * Scripts the first view needs at once, for preload hints, when the islands that hydrate
   * immediately all come from one remote: their expose chunks, and that remote's React renderer
   * (it then provides it) only when its manifest says one of them needs it as it loads (islands
   * bound without a framework do not). With several such remotes nothing: which one provides
   * React is decided in the browser (a guess could load the renderer twice), and their chunks (the
   * client of a list) would compete with the page's largest paint — unless none of
   * them needs React as it loads (islands bound without a framework, a list or a link),
   * then each one's expose chunks. Islands that wait for a trigger preload nothing.
   */
  firstViewScripts(requests: IslandRequest[], versions?: ReadonlyMap<string, string | null>): string[] {
    const byRemote = new Map<string, string[]>();
    for (const request of requests) {
      if ((request.hydrate ?? 'immediate') !== 'immediate') continue;
      const parsed = parseIslandName(request.name);
      if (!parsed) continue;
      byRemote.set(parsed.remote, [...(byRemote.get(parsed.remote) ?? []), parsed.module]);
    }
    const [only, ...others] = [...byRemote];
    const version = (remote: string) => versions?.get(remote);
    if (only && others.length === 0) return this.federation.scripts(only[0], only[1], version(only[0]));
    if (others.length === 0 || [...byRemote].some(([remote, modules]) => this.federation.needsRenderer(remote, modules, version(remote)))) return [];
    return [...byRemote].flatMap(([remote, modules]) => this.federation.scripts(remote, modules, version(remote)));
  }

  private async renderOne(
    request: IslandRequest,
    page: IslandPage,
    signal: AbortSignal,
    budget: Promise<'timeout'>,
  ): Promise<IslandOutcome> {
    const parsed = parseIslandName(request.name);
    if (!parsed) return { ok: false, stage: 'load', ms: 0 };
    const started = performance.now();
    // A span per island (with tracing on): the searches and calls its render makes are its children.
    const work = withSpan('island render', { 'khs.island': request.name, 'khs.remote': parsed.remote }, () => this.work(request, parsed.remote, parsed.module, page, signal));
    // The budget may win; the work's later rejection must not become an unhandled one.
    work.catch(() => {});
    try {
      const done = await Promise.race([work, budget]);
      if (done === 'timeout') {
        throw new ServerIslandError(parsed.remote, 'timeout', `"${request.name}" did not render within ${this.options.budgetMs} ms`);
      }
      return this.observed(parsed.remote, page, { ok: true, result: done.result, ms: performance.now() - started, ...(done.reused ? { reused: true } : {}), ...(done.empty ? { empty: true } : {}) });
    } catch (error) {
      const stage = error instanceof ServerIslandError ? error.stage : 'render';
      this.failures.report(parsed.remote, stage, error);
      return this.observed(parsed.remote, page, { ok: false, stage, ms: performance.now() - started });
    }
  }

  private observed(remote: string, page: IslandPage, outcome: IslandOutcome): IslandOutcome {
    this.latestOutcome.set(remote, { ok: outcome.ok, at: Date.now() });
    this.onIslandRendered?.(remote, page.versions?.get(remote), outcome);
    return outcome;
  }

  private async work(
    request: IslandRequest,
    remote: string,
    moduleName: string,
    page: IslandPage,
    signal: AbortSignal,
  ): Promise<{ result: IslandRenderResult; reused: boolean; empty?: boolean }> {
    const version = page.versions?.get(remote);
    const module = await this.federation.load(remote, moduleName, version);
    if (version == null && typeof module.dataVersion === 'function') this.dataVersionOf.set(request.name, module.dataVersion);
    const context = { config: page.config, url: page.url, signal, ...(page.content ? { content: page.content } : {}) };
    try {
      // What the island reads itself beyond its page's props (its slice's own data), for its server render only.
      const own = typeof module.serverProps === 'function' ? await module.serverProps(request.props, context) : undefined;
      if (own === null) return { result: EMPTY_RESULT, reused: false, empty: true };
      const props = own ? { ...request.props, ...own } : request.props;
      const ttl = module.cacheTtlMs;
      const key = ttl ? `${request.name}\n${this.federation.buildKey(remote, version)}\n${module.dataVersion?.() ?? ''}\n${page.url}\n${JSON.stringify(props)}` : '';
      if (ttl) {
        const cached = this.renderCache.get(key);
        if (cached && cached.until > Date.now()) return { result: cached.result, reused: true };
      }
      const result = await module.render(props, context);
      if (typeof result?.html !== 'string') throw new TypeError('render returned no html');
      if (ttl) {
        this.renderCache.delete(key);
        this.renderCache.set(key, { until: Date.now() + ttl, result });
        if (this.renderCache.size > RENDER_CACHE_ENTRIES) this.renderCache.delete(this.renderCache.keys().next().value!);
      }
      return { result, reused: false };
    } catch (error) {
      throw error instanceof ServerIslandError
        ? error
        : new ServerIslandError(remote, 'render', `"${request.name}": ${(error as Error)?.message ?? error}`, { cause: error });
    }
  }
}
