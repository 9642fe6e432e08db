import type pg from 'pg';

/** The shells' canary rule ended a canary: every instance stops assigning it. */
export interface CanaryEnd {
  remote: string;
  /** The canary build version that ended. */
  version: string;
  /** The rule's reason (`evaluateCanary`), shown in the operators' view and `deploy:status`. */
  reason: string;
  /** ISO date of the decision. */
  at: string;
}

/**
 * Where the end of a canary is recorded, so that every shell instance stops assigning it at once:
 * this process's memory (`MemoryCanaryEndStore`, one machine) or PostgreSQL (`PostgresCanaryEndStore`,
 * every instance). `hasEnded`/`endOf` are synchronous (the selection plugin runs per remote per page)
 * and answer from memory, which the PostgreSQL store refreshes every `refreshIntervalMs`.
 */
export interface CanaryEndStore {
  /** Records the end unless one is recorded already (the first decision stays); resolves with the stored end and whether this call recorded it. */
  recordEnd(end: CanaryEnd): Promise<{ end: CanaryEnd; recorded: boolean }>;
  hasEnded(remote: string, version: string): boolean;
  endOf(remote: string, version: string): CanaryEnd | undefined;
  /** Stops refreshing. */
  close(): Promise<void>;
}

const key = (remote: string, version: string) => `${remote}\n${version}`;

/** The ends of canaries on one machine (lost on restart: the rule decides again from the counts). */
export class MemoryCanaryEndStore implements CanaryEndStore {
  protected readonly ends = new Map<string, CanaryEnd>();

  async recordEnd(end: CanaryEnd): Promise<{ end: CanaryEnd; recorded: boolean }> {
    const existing = this.ends.get(key(end.remote, end.version));
    if (existing) return { end: existing, recorded: false };
    this.ends.set(key(end.remote, end.version), end);
    return { end, recorded: true };
  }

  hasEnded(remote: string, version: string): boolean {
    return this.ends.has(key(remote, version));
  }

  endOf(remote: string, version: string): CanaryEnd | undefined {
    return this.ends.get(key(remote, version));
  }

  async close(): Promise<void> {}
}

export interface PostgresCanaryEndStoreOptions {
  /** How often the shared rows are read into memory, ms. Default 1000: another instance stops assigning at most that much later. */
  refreshIntervalMs?: number;
  onError?: (error: Error) => void;
}

/**
 * The ends of canaries in PostgreSQL (`canary_ends`, migration 7), shared by every instance: the
 * first instance whose rule ends a canary inserts the row (`ON CONFLICT DO NOTHING`: one decision
 * stays), and every instance reads the rows into memory each `refreshIntervalMs`.
 */
export class PostgresCanaryEndStore extends MemoryCanaryEndStore {
  private readonly timer: NodeJS.Timeout;
  private readonly onError: (error: Error) => void;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresCanaryEndStoreOptions = {},
  ) {
    super();
    this.onError = options.onError ?? ((error) => console.error('[shell] canary ends not read (kept the last ones):', error.message));
    this.timer = setInterval(() => void this.refresh().catch(this.onError), options.refreshIntervalMs ?? 1000);
    this.timer.unref();
  }

  override async recordEnd(end: CanaryEnd): Promise<{ end: CanaryEnd; recorded: boolean }> {
    const { rowCount } = await this.pool.query(
      'INSERT INTO canary_ends (remote, version, reason, decided_at) VALUES ($1, $2, $3, $4) ON CONFLICT (remote, version) DO NOTHING',
      [end.remote, end.version, end.reason, end.at],
    );
    await this.refresh();
    return { end: this.endOf(end.remote, end.version) ?? end, recorded: rowCount === 1 };
  }

  /** Reads every recorded end into memory. */
  async refresh(): Promise<void> {
    const { rows } = await this.pool.query<{ remote: string; version: string; reason: string; decided_at: string }>('SELECT remote, version, reason, decided_at FROM canary_ends');
    for (const row of rows) this.ends.set(key(row.remote, row.version), { remote: row.remote, version: row.version, reason: row.reason, at: row.decided_at });
  }

  override async close(): Promise<void> {
    clearInterval(this.timer);
  }
}
