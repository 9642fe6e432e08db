import { parseIslandName, type IslandRenderResult, type PageConfig } from 'contracts';
import { FailureLog, type ServerIslandStage } from './failureLog.js';
import { ServerIslandError, type ServerFederation } from './serverFederation.js';

/** One island a page asked for. */
export interface IslandRequest {
  name: string;
  props: Record<string, unknown>;
}

/** A rendered island, or why it holds a placeholder. */
export type IslandOutcome = ({ ok: true; result: IslandRenderResult } | { ok: false; stage: ServerIslandStage }) & {
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
}

/** Renders a page's islands with the remotes' server builds, each alone and within the budget. */
export class ServerIslands {
  readonly failures: FailureLog;

  constructor(private readonly options: ServerIslandsOptions) {
    this.failures = options.failures ?? new FailureLog();
  }

  get serverTiming(): boolean {
    return this.options.serverTiming === true;
  }

  get federation(): ServerFederation {
    return this.options.federation;
  }

  /** Renders all islands at once; never rejects. */
  renderAll(requests: IslandRequest[], page: { config: PageConfig; url: string }): Promise<IslandOutcome[]> {
    return Promise.all(requests.map((request) => this.renderOne(request, page)));
  }

  /** Stylesheets of the islands' browser builds, in first-use order. */
  stylesheets(requests: IslandRequest[]): string[] {
    const urls = new Set<string>();
    for (const request of requests) {
      const parsed = parseIslandName(request.name);
      if (parsed) for (const url of this.federation.stylesheets(parsed.remote, parsed.module)) urls.add(url);
    }
    return [...urls];
  }

  private async renderOne(request: IslandRequest, page: { config: PageConfig; url: string }): Promise<IslandOutcome> {
    const parsed = parseIslandName(request.name);
    if (!parsed) return { ok: false, stage: 'load', ms: 0 };
    const started = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ServerIslandError(parsed.remote, 'timeout', `"${request.name}" did not render within ${this.options.budgetMs} ms`));
      }, this.options.budgetMs);
    });
    const work = (async () => {
      const module = await this.federation.load(parsed.remote, parsed.module);
      try {
        const result = await module.render(request.props, { config: page.config, url: page.url, signal: controller.signal });
        if (typeof result?.html !== 'string') throw new TypeError('render returned no html');
        return result;
      } catch (error) {
        throw error instanceof ServerIslandError
          ? error
          : new ServerIslandError(parsed.remote, 'render', `"${request.name}": ${(error as Error)?.message ?? error}`, { cause: error });
      }
    })();
    // The budget may win; the work's later rejection must not become an unhandled one.
    work.catch(() => {});
    try {
      const result = await Promise.race([work, budget]);
      return { ok: true, result, ms: performance.now() - started };
    } catch (error) {
      const stage = error instanceof ServerIslandError ? error.stage : 'render';
      this.failures.report(parsed.remote, stage, error);
      return { ok: false, stage, ms: performance.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }
}
