import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalyticsRule } from './analytics-rules.js';

/** A logged event as `GET /analytics/events` answers it (Typesense's `to_json` of a doc or search event). */
export type LoggedEvent = Record<string, unknown> & { name: string; user_id: string; timestamp: number };

const RULES_FILE = 'rules.json';
const EVENTS_FILE = 'events.jsonl';

/**
 * Keeps analytics on disk in `dataDir/analytics/`: the rules as one JSON file rewritten
 * atomically after each change (they are few, like sets), and the log rules' events as an
 * append-only JSONL file written at each flush (Typesense keeps them in its analytics store).
 * Only the search server's writer worker owns it.
 */
export class AnalyticsStore {
  private readonly folder: string;

  constructor(dataDir: string) {
    this.folder = join(dataDir, 'analytics');
    mkdirSync(this.folder, { recursive: true });
  }

  loadRules(): AnalyticsRule[] {
    const path = join(this.folder, RULES_FILE);
    if (!existsSync(path)) return [];
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as AnalyticsRule[]) : [];
  }

  saveRules(rules: AnalyticsRule[]): void {
    const path = join(this.folder, RULES_FILE);
    writeFileSync(`${path}.tmp`, JSON.stringify(rules));
    renameSync(`${path}.tmp`, path);
  }

  /** Every stored event, oldest first; a torn last line (crash during an append) is skipped. */
  loadEvents(): LoggedEvent[] {
    const path = join(this.folder, EVENTS_FILE);
    if (!existsSync(path)) return [];
    const events: LoggedEvent[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        events.push(JSON.parse(line) as LoggedEvent);
      } catch {
        // torn line
      }
    }
    return events;
  }

  appendEvents(events: LoggedEvent[]): void {
    if (events.length === 0) return;
    appendFileSync(join(this.folder, EVENTS_FILE), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  }

  /** Rewrites the event file with only `events` (what can still be read back), atomically. */
  rewriteEvents(events: LoggedEvent[]): void {
    const path = join(this.folder, EVENTS_FILE);
    writeFileSync(`${path}.tmp`, events.map((e) => JSON.stringify(e) + '\n').join(''));
    renameSync(`${path}.tmp`, path);
  }
}
