import type { AnalyticsChange, AnalyticsOperation } from './analytics-manager.js';
import type { AnalyticsApplyResult } from './apply-changes.js';

/** Typesense's default `analytics-flush-interval`: one hour. */
export const DEFAULT_ANALYTICS_FLUSH_INTERVAL_MS = 3_600_000;

/** What the flusher needs of the worker pool. */
export interface AnalyticsPool {
  analytics(operation: AnalyticsOperation, args: unknown[]): Promise<unknown>;
  write(method: 'applyAnalyticsChanges', args: [AnalyticsChange[]]): Promise<unknown>;
}

/**
 * Ends analytics periods on the HTTP thread, every `intervalMs` (Typesense's
 * `analytics-flush-interval`) and on `POST /analytics/flush`: the writer hands over what it
 * counted (`drain`), then the changes go through the pool as one write, so the writer persists
 * them and every reader's index shows the new counters and query counts. One flush at a time.
 */
export class AnalyticsFlusher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<AnalyticsApplyResult> | undefined;

  constructor(
    private readonly pool: AnalyticsPool,
    private readonly intervalMs: number,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => this.log(`analytics flush failed: ${(error as Error)?.message ?? String(error)}`));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Flushes now (after a flush under way, if any); resolves with what changed. */
  async flush(): Promise<AnalyticsApplyResult> {
    while (this.running) await this.running.catch(() => {});
    this.running = this.flushOnce();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  private async flushOnce(): Promise<AnalyticsApplyResult> {
    const changes = (await this.pool.analytics('drain', [Date.now()])) as AnalyticsChange[];
    if (changes.length === 0) return { updated: 0, trimmed: 0, skipped: 0 };
    return (await this.pool.write('applyAnalyticsChanges', [changes])) as AnalyticsApplyResult;
  }

  /** Stops the timer and flushes what was counted, so a graceful stop loses no clicks. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch((error: unknown) => this.log(`analytics flush on close failed: ${(error as Error)?.message ?? String(error)}`));
  }
}
