import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which kind of set a file holds. */
export type SetKind = 'synonym_sets' | 'curation_sets';

/**
 * Keeps synonym sets and curation sets on disk: one JSON file per kind
 * (`dataDir/sets/<kind>.json`, `{ name: items[] }`), rewritten atomically
 * (temporary file + rename) after every change. Sets are small (editor-made),
 * so whole-file writes are simpler and as durable as the document log.
 */
export class SetStore {
  private readonly folder: string;

  /**
   * @param readOnly only load, never write (the search server's reader workers load the
   *   folder their writer keeps). Default false.
   */
  constructor(
    dataDir: string,
    readonly readOnly = false,
  ) {
    this.folder = join(dataDir, 'sets');
    if (!readOnly) mkdirSync(this.folder, { recursive: true });
  }

  load(kind: SetKind): Record<string, unknown[]> {
    const path = join(this.folder, `${kind}.json`);
    if (!existsSync(path)) return {};
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown[]>) : {};
  }

  save(kind: SetKind, sets: Record<string, unknown[]>): void {
    if (this.readOnly) return;
    const path = join(this.folder, `${kind}.json`);
    const temporary = `${path}.tmp`;
    writeFileSync(temporary, JSON.stringify(sets));
    renameSync(temporary, path);
  }
}
