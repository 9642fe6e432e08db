import { ApiError } from '../api-error.js';
import { type AnalyticsRule, mergeRuleUpdate, requireRuleName, ruleFamily, type RuleContext, validateRule } from './analytics-rules.js';
import type { AnalyticsStore, LoggedEvent } from './analytics-store.js';

/**
 * What a search worker reports of one search for analytics (computed from its parameters and its
 * result, see `searchNote`); the HTTP thread adds who searched and when.
 */
export interface SearchNote {
  collection: string;
  /** `q` trimmed, ASCII letters lower-cased (Typesense's `normalize_ascii_no_spaces`). */
  q: string;
  /** `q` with each word completed to the first hit's matched word (for `expand_query`); `q` without hits. */
  expandedQ: string;
  found: number;
  filterBy: string;
  analyticsTag: string;
}

/** A search as the writer's analytics receive it. */
export interface NotedSearch extends SearchNote {
  /** `x-typesense-user-id` (header or parameter), else the client's address, as in Typesense. */
  userId: string;
  /** When the HTTP thread received the answer, microseconds since the epoch. */
  timestampUs: number;
}

/** One query document a popular/nohits rule adds to its destination at a flush. */
export interface QueryCount {
  id: string;
  q: string;
  count: number;
  filter_by?: string;
  analytics_tag?: string;
}

/**
 * Document changes a flush asks for; applied as a pool write (`SearchEngine.applyAnalyticsChanges`)
 * so every worker's index sees them. Counters: `increments` are [document id, amount].
 */
export type AnalyticsChange =
  | { kind: 'counter'; collection: string; field: string; increments: [string, number][] }
  | { kind: 'queries'; collection: string; limit: number; queries: QueryCount[] };

/** `GET /analytics/status`: what waits for the next flush (all 0 right after one). */
export interface AnalyticsStatus {
  popular_prefix_queries: number;
  nohits_prefix_queries: number;
  log_prefix_queries: number;
  query_log_events: number;
  query_counter_events: number;
  doc_log_events: number;
  doc_counter_events: number;
}

/** Options of the writer's analytics. */
export interface AnalyticsManagerOptions {
  /** Events one client address may post per minute; beyond it 500 `event rate limit reached.` (Typesense's answer). 0 = no limit. */
  minuteRateLimit: number;
  /**
   * Log events held for `GET /analytics/events` across all users (memory bound); beyond it the
   * events of the users least recently active are forgotten first. Default DEFAULT_MAX_KEPT_EVENTS.
   */
  maxKeptEvents?: number;
}

/** Default `maxKeptEvents`: a few hundred bytes each, so about 100 MB of the writer's heap at most. */
export const DEFAULT_MAX_KEPT_EVENTS = 250_000;

/** Typesense's window in which a user's consecutive searches count as one query being typed. */
export const QUERY_FINALIZATION_INTERVAL_US = 4_000_000;
/** Longest query Typesense aggregates from searches. */
const MAX_QUERY_LENGTH = 1024;
/** Searches queued per user and collection between flushes (Typesense: 100). */
const MAX_QUEUED_PER_USER = 100;
/** `n` of `GET /analytics/events` is at most this, so no more are kept per user and rule. */
export const MAX_EVENTS_READ = 1000;
const RATE_WINDOW_MS = 60_000;

type SearchType = 'popular_queries' | 'nohits_queries' | 'log';
interface QueuedSearch {
  q: string;
  expandedQ: string;
  timestampUs: number;
  filterBy: string;
  analyticsTag: string;
}
interface CountedQuery {
  q: string;
  filterBy: string;
  analyticsTag: string;
  count: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Stable id of a query document (Typesense uses a 64-bit hash of the query too; its value differs). */
export function queryDocumentId(q: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(q, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString();
}

/**
 * The analytics of one search server, held by its writer worker: rules (persisted), counters and
 * query counts waiting for the next flush, the log rules' events (persisted at each flush), and the
 * searches of each user waiting to be folded into the queries they were typing. Typesense 30's
 * behaviour (see `analytics-rules.ts`); every method answers what the HTTP route sends back.
 */
export class AnalyticsManager {
  private readonly rules = new Map<string, AnalyticsRule>();
  /** What `DELETE` answers: the body the rule was created with (Typesense keeps it), or its last update. */
  private readonly records = new Map<string, Record<string, unknown>>();
  private readonly docCounts = new Map<string, Map<string, number>>();
  private readonly queryCounts = new Map<string, Map<string, CountedQuery>>();
  /** Events of log rules not yet written to disk, oldest first. */
  private pendingEvents: LoggedEvent[] = [];
  /** The last MAX_EVENTS_READ events per user and rule (read back by `GET /analytics/events`). */
  private readonly eventsByUser = new Map<string, LoggedEvent[]>();
  private keptEvents = 0;
  private readonly queued: Record<SearchType, Map<string, Map<string, QueuedSearch[]>>> = { popular_queries: new Map(), nohits_queries: new Map(), log: new Map() };
  /** Searches in `queued` and events in `pendingEvents`, by kind, so `status()` costs nothing however much waits. */
  private readonly waiting = { popular_queries: 0, nohits_queries: 0, log: 0, searchEvents: 0, docEvents: 0 };
  private readonly rateWindows = new Map<string, { startedMs: number; count: number }>();
  private readonly options: Required<AnalyticsManagerOptions>;

  constructor(
    private readonly store: AnalyticsStore | undefined,
    private readonly collectionExists: (name: string) => boolean,
    options: AnalyticsManagerOptions,
    private readonly log: (message: string) => void = () => {},
  ) {
    this.options = { maxKeptEvents: DEFAULT_MAX_KEPT_EVENTS, ...options };
    if (!store) return;
    const restore: RuleContext = { collectionExists, live: false };
    for (const stored of readSafely(() => store.loadRules(), 'rules', log)) {
      try {
        this.install(validateRule(stored as unknown as Record<string, unknown>, restore, true), stored as unknown as Record<string, unknown>);
      } catch (error) {
        log(`skipped a stored analytics rule ${stored?.name}: ${(error as Error).message}`);
      }
    }
    const events = readSafely(() => store.loadEvents(), 'events', log);
    for (const event of events) this.keepEvent(event);
    // Events that can no longer be read back (beyond the newest MAX_EVENTS_READ per user and rule,
    // or of the users least recently active beyond maxKeptEvents) are dropped from disk.
    if (events.length > 2 * this.keptEvents + 1000) store.rewriteEvents([...this.eventsByUser.values()].flat().sort((a, b) => a.timestamp - b.timestamp));
  }

  // ---- rules ----

  /** `GET /analytics/rules[?rule_tag=]`: document rules, then search rules, each in creation order. */
  listRules(ruleTag = ''): AnalyticsRule[] {
    const all = [...this.rules.values()].filter((rule) => ruleTag === '' || rule.rule_tag === ruleTag);
    return [...all.filter((r) => ruleFamily(r) === 'doc'), ...all.filter((r) => ruleFamily(r) === 'search')];
  }

  /** `GET /analytics/rules/:name`. */
  getRule(name: string): AnalyticsRule {
    const rule = this.rules.get(name);
    if (!rule) throw new ApiError(400, 'Rule not found');
    return rule;
  }

  /** `POST /analytics/rules`: one rule (errors as 400), or an array answered item by item (`{error}` in place of a refused one). */
  createRules(body: unknown): unknown {
    if (Array.isArray(body)) {
      return body.map((item) => {
        try {
          return this.createRule(item, false);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return { error: error.message };
        }
      });
    }
    return this.createRule(body, false);
  }

  /** `PUT /analytics/rules/:name`: creates the rule or changes an existing one (its name comes from the path). */
  upsertRule(name: string, body: unknown): Record<string, unknown> {
    if (!isObject(body)) throw new ApiError(400, 'Bad JSON.');
    return this.createRule({ ...body, name }, true);
  }

  /** `DELETE /analytics/rules/:name`: drops the rule and what waited for its next flush. */
  deleteRule(name: string): Record<string, unknown> {
    const record = this.records.get(name);
    if (!this.rules.has(name) || !record) throw new ApiError(400, 'Rule not found');
    this.rules.delete(name);
    this.records.delete(name);
    this.docCounts.delete(name);
    this.queryCounts.delete(name);
    this.persistRules();
    return record;
  }

  private createRule(body: unknown, upsert: boolean): Record<string, unknown> {
    const payload = requireRuleName(body);
    const existing = this.rules.get(payload.name);
    if (existing && !upsert) throw new ApiError(400, 'Rule already exists');
    const context: RuleContext = { collectionExists: this.collectionExists, live: true };
    if (!existing) {
      const rule = validateRule(payload, context, true);
      this.install(rule, payload);
      this.persistRules();
      return payload;
    }
    const merged = mergeRuleUpdate(existing, payload);
    const rule = validateRule(merged, context, false);
    this.install(rule, merged);
    this.persistRules();
    return merged;
  }

  private install(rule: AnalyticsRule, record: Record<string, unknown>): void {
    this.rules.set(rule.name, rule);
    this.records.set(rule.name, record);
    if (rule.type === 'counter' && !this.docCounts.has(rule.name)) this.docCounts.set(rule.name, new Map());
    if ((rule.type === 'popular_queries' || rule.type === 'nohits_queries') && !this.queryCounts.has(rule.name)) this.queryCounts.set(rule.name, new Map());
  }

  private persistRules(): void {
    this.store?.saveRules([...this.rules.values()]);
  }

  // ---- events ----

  /**
   * `POST /analytics/events`: `{ name, event_type?, data }`, where `name` is the rule's. Counter
   * rules count `doc_id`/`doc_ids` (× weight) until the next flush; log rules keep the event; search
   * rules count or keep `data.q`. Refusals carry Typesense's messages.
   */
  addEvent(clientAddress: string, body: unknown): { ok: true } {
    this.checkRate(clientAddress);
    if (!isObject(body) || typeof body.name !== 'string') throw new ApiError(400, 'name is required');
    if (!isObject(body.data)) throw new ApiError(400, 'data is required');
    const data = body.data;
    if (data.user_id !== undefined && typeof data.user_id !== 'string') throw new ApiError(400, 'user_id should be a string');
    const rule = this.rules.get(body.name);
    if (!rule) throw new ApiError(400, 'Rule not found');
    const nowUs = Date.now() * 1000;
    if (ruleFamily(rule) === 'doc') this.addDocEvent(rule, data, nowUs);
    else this.addSearchEvent(rule, data, nowUs);
    return { ok: true };
  }

  private checkRate(clientAddress: string): void {
    const limit = this.options.minuteRateLimit;
    if (limit <= 0) return;
    const now = Date.now();
    const window = this.rateWindows.get(clientAddress);
    if (!window || now - window.startedMs >= RATE_WINDOW_MS) {
      if (this.rateWindows.size >= 1024) for (const [address, w] of this.rateWindows) if (now - w.startedMs >= RATE_WINDOW_MS) this.rateWindows.delete(address);
      this.rateWindows.set(clientAddress, { startedMs: now, count: 1 });
      return;
    }
    if (window.count >= limit) throw new ApiError(500, 'event rate limit reached.');
    window.count++;
  }

  private addDocEvent(rule: AnalyticsRule, data: Record<string, unknown>, nowUs: number): void {
    if (data.doc_ids !== undefined && data.doc_id !== undefined) throw new ApiError(400, 'doc_ids and doc_id cannot both be present');
    if (data.doc_ids === undefined && data.doc_id === undefined) throw new ApiError(400, 'doc_ids or doc_id is required');
    if (data.doc_ids !== undefined && (!Array.isArray(data.doc_ids) || data.doc_ids.some((id) => typeof id !== 'string'))) throw new ApiError(400, 'doc_ids should be an array');
    if (data.doc_id !== undefined && typeof data.doc_id !== 'string') throw new ApiError(400, 'doc_id should be a string');
    const ids = (data.doc_ids as string[] | undefined) ?? [data.doc_id as string];
    if (rule.type === 'counter') {
      const counts = this.docCounts.get(rule.name) as Map<string, number>;
      const weight = rule.params?.weight ?? 1;
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + weight);
      return;
    }
    const userId = requireUserId(data);
    const event: LoggedEvent = { name: rule.name, collection: rule.collection, query: typeof data.query === 'string' ? data.query : '', event_type: rule.event_type, timestamp: nowUs, user_id: userId };
    if (data.doc_ids !== undefined) event.doc_ids = [...ids];
    else event.doc_id = ids[0];
    if (rule.event_type === 'custom') for (const [key, value] of Object.entries(data)) event[key] = typeof value === 'string' ? value : JSON.stringify(value);
    this.logEvent(event);
  }

  private addSearchEvent(rule: AnalyticsRule, data: Record<string, unknown>, nowUs: number): void {
    if (typeof data.q !== 'string') throw new ApiError(400, "'q' should be a string and is required");
    if (data.filter_by !== undefined && typeof data.filter_by !== 'string') throw new ApiError(400, "'filter_by' should be a string");
    if (data.analytics_tag !== undefined && typeof data.analytics_tag !== 'string') throw new ApiError(400, "'analytics_tag' should be a string");
    const userId = requireUserId(data);
    const timestamp = typeof data.timestamp === 'number' && Number.isSafeInteger(data.timestamp) && data.timestamp >= 0 ? data.timestamp : nowUs;
    this.countSearch(rule, { q: data.q, expandedQ: data.q, timestampUs: timestamp, filterBy: (data.filter_by as string | undefined) ?? '', analyticsTag: (data.analytics_tag as string | undefined) ?? '' }, userId, false);
  }

  /** Counts (popular/nohits) or logs (log) one finished query of a search rule. */
  private countSearch(rule: AnalyticsRule, search: QueuedSearch, userId: string, fromRequests: boolean): void {
    const q = fromRequests && rule.params?.expand_query ? search.expandedQ : search.q;
    if (rule.type === 'log') {
      const meta = rule.params?.meta_fields ?? [];
      const event: LoggedEvent = { name: rule.name, collection: rule.collection, query: q, event_type: 'search', timestamp: search.timestampUs, user_id: userId };
      if (meta.includes('filter_by') && search.filterBy) event.filter_by = search.filterBy;
      if (meta.includes('analytics_tag') && search.analyticsTag) event.analytics_tag = search.analyticsTag;
      this.logEvent(event);
      return;
    }
    const counts = this.queryCounts.get(rule.name) as Map<string, CountedQuery>;
    const key = `${q}\u0000${search.filterBy}\u0000${search.analyticsTag}`;
    const counted = counts.get(key);
    if (counted) counted.count++;
    // Typesense drops new queries once twice the limit are waiting (against abuse).
    else if (counts.size < 2 * (rule.params?.limit ?? 0)) counts.set(key, { q, filterBy: search.filterBy, analyticsTag: search.analyticsTag, count: 1 });
  }

  private logEvent(event: LoggedEvent): void {
    this.pendingEvents.push(event);
    if (event.event_type === 'search') this.waiting.searchEvents++;
    else this.waiting.docEvents++;
    this.keepEvent(event);
  }

  private keepEvent(event: LoggedEvent): void {
    const key = `${event.user_id}\u0000${event.name}`;
    const list = this.eventsByUser.get(key) ?? [];
    // Re-inserted, so the map runs from the user least recently active to the most.
    this.eventsByUser.delete(key);
    this.eventsByUser.set(key, list);
    list.push(event);
    this.keptEvents++;
    if (list.length > MAX_EVENTS_READ) this.keptEvents -= list.splice(0, list.length - MAX_EVENTS_READ).length;
    for (const [oldestKey, oldest] of this.eventsByUser) {
      if (this.keptEvents <= this.options.maxKeptEvents) break;
      this.eventsByUser.delete(oldestKey);
      this.keptEvents -= oldest.length;
    }
  }

  /** `GET /analytics/events?user_id&name&n`: the user's newest `n` events of a log rule, newest first. */
  getEvents(userId: string, name: string, n: number): { events: LoggedEvent[] } {
    if (n > MAX_EVENTS_READ) throw new ApiError(400, 'N cannot be greater than 1000');
    if (!this.rules.has(name)) throw new ApiError(400, 'Rule not found');
    const list = this.eventsByUser.get(`${userId}\u0000${name}`) ?? [];
    return { events: list.slice(Math.max(0, list.length - n)).reverse() };
  }

  // ---- searches ----

  /**
   * Searches answered by any worker, as the HTTP thread forwards them: each is queued for the
   * user and collection when a rule captures that collection's searches (log always; popular with
   * hits, nohits without), and folded into finished queries at the next flush.
   */
  noteSearches(searches: NotedSearch[]): void {
    for (const search of searches) {
      if (search.q.length > MAX_QUERY_LENGTH) continue;
      const types: SearchType[] = ['log', search.found > 0 ? 'popular_queries' : 'nohits_queries'];
      for (const type of types) {
        if (!this.capturingRules(search.collection, type).length) continue;
        let byCollection = this.queued[type].get(search.userId);
        if (!byCollection) this.queued[type].set(search.userId, (byCollection = new Map()));
        let queue = byCollection.get(search.collection);
        if (!queue) byCollection.set(search.collection, (queue = []));
        if (queue.length < MAX_QUEUED_PER_USER) {
          this.waiting[type]++;
          queue.push({ q: search.q, expandedQ: search.found > 0 ? search.expandedQ : search.q, timestampUs: search.timestampUs, filterBy: search.filterBy, analyticsTag: search.analyticsTag });
        }
      }
    }
  }

  private capturingRules(collection: string, type: SearchType): AnalyticsRule[] {
    const found: AnalyticsRule[] = [];
    for (const rule of this.rules.values()) if (rule.collection === collection && rule.type === type && rule.event_type === 'search' && rule.params?.capture_search_requests) found.push(rule);
    return found;
  }

  /**
   * Folds each user's queued searches into queries: a search followed within
   * QUERY_FINALIZATION_INTERVAL_US by the same user's next search on the collection was a prefix
   * being typed and is dropped; the last one counts (Typesense's `compact_user_queries`).
   */
  private foldQueuedSearches(nowUs: number): void {
    for (const type of ['popular_queries', 'nohits_queries', 'log'] as const) {
      for (const [userId, byCollection] of this.queued[type]) {
        for (const [collection, queue] of byCollection) {
          const rules = this.capturingRules(collection, type);
          queue.forEach((search, i) => {
            const next = queue[i + 1];
            const gap = next ? next.timestampUs - search.timestampUs : nowUs - search.timestampUs;
            if (next && gap <= QUERY_FINALIZATION_INTERVAL_US) return;
            for (const rule of rules) this.countSearch(rule, search, userId, true);
          });
        }
        this.queued[type].delete(userId);
      }
      this.waiting[type] = 0;
    }
  }

  // ---- flush ----

  /**
   * Ends an aggregation period: folds queued searches, writes the log rules' new events to disk
   * and hands over the counted documents as changes for the pool to apply (then forgets them).
   */
  drain(nowMs = Date.now()): AnalyticsChange[] {
    this.foldQueuedSearches(nowMs * 1000);
    this.store?.appendEvents(this.pendingEvents);
    this.pendingEvents = [];
    this.waiting.searchEvents = 0;
    this.waiting.docEvents = 0;
    const changes: AnalyticsChange[] = [];
    for (const [name, counts] of this.docCounts) {
      const rule = this.rules.get(name);
      if (!rule || counts.size === 0) continue;
      changes.push({ kind: 'counter', collection: rule.params?.destination_collection ?? rule.collection, field: rule.params?.counter_field as string, increments: [...counts] });
      counts.clear();
    }
    for (const [name, counts] of this.queryCounts) {
      const rule = this.rules.get(name);
      if (!rule || counts.size === 0) continue;
      const meta = rule.params?.meta_fields ?? [];
      const byId = new Map<string, QueryCount>();
      for (const counted of counts.values()) {
        const id = queryDocumentId(counted.q);
        const doc = byId.get(id) ?? { id, q: counted.q, count: 0 };
        doc.count += counted.count;
        if (meta.includes('filter_by') && counted.filterBy) doc.filter_by = counted.filterBy;
        if (meta.includes('analytics_tag') && counted.analyticsTag) doc.analytics_tag = counted.analyticsTag;
        byId.set(id, doc);
      }
      changes.push({ kind: 'queries', collection: rule.params?.destination_collection as string, limit: rule.params?.limit as number, queries: [...byId.values()] });
      counts.clear();
    }
    if (changes.length > 0) this.log(`analytics flush: ${changes.length} change(s) for ${new Set(changes.map((c) => c.collection)).size} collection(s)`);
    return changes;
  }

  /** `GET /analytics/status`. */
  status(): AnalyticsStatus {
    // One entry per rule: cheap to sum.
    const sizes = (map: Map<string, Map<string, unknown>>): number => [...map.values()].reduce((sum, m) => sum + m.size, 0);
    return {
      popular_prefix_queries: this.waiting.popular_queries,
      nohits_prefix_queries: this.waiting.nohits_queries,
      log_prefix_queries: this.waiting.log,
      query_log_events: this.waiting.searchEvents,
      query_counter_events: sizes(this.queryCounts),
      doc_log_events: this.waiting.docEvents,
      doc_counter_events: sizes(this.docCounts),
    };
  }
}

/** An unreadable file must not keep the writer (and so the server) from starting: it is logged (the next change rewrites it). */
function readSafely<T>(read: () => T[], what: string, log: (message: string) => void): T[] {
  try {
    return read();
  } catch (error) {
    log(`skipped the unreadable analytics ${what} file: ${(error as Error).message}`);
    return [];
  }
}

/** Log and search events need the user; Typesense reads it unchecked (and fails without a clear answer). */
function requireUserId(data: Record<string, unknown>): string {
  if (typeof data.user_id !== 'string') throw new ApiError(400, 'user_id is required');
  return data.user_id;
}

/** The manager's methods the HTTP routes call through the pool (on the writer). */
export const ANALYTICS_OPERATIONS = ['listRules', 'getRule', 'createRules', 'upsertRule', 'deleteRule', 'addEvent', 'getEvents', 'status', 'drain', 'noteSearches'] as const;
export type AnalyticsOperation = (typeof ANALYTICS_OPERATIONS)[number];
