import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What the index holds, as the indexer last wrote it: the content hash of each article, by id. */
export interface IndexState {
  /** `ARTICLE_DOCUMENT_VERSION` the documents were written with. */
  documentVersion: number;
  collection: string;
  hashes: Record<string, string>;
}

/** The indexer's own record of what it sent (the search server cannot list hashes back). */
export interface IndexStateStore {
  load(): IndexState | undefined;
  save(state: IndexState): void;
}

/** Keeps the state in a JSON file (written to a temporary file and renamed, so a crash never leaves half a file). */
export function fileIndexState(file: string): IndexStateStore {
  return {
    load() {
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as IndexState;
        return typeof parsed === 'object' && parsed !== null && typeof parsed.hashes === 'object' ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    save(state) {
      mkdirSync(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(state));
      renameSync(temporary, file);
    },
  };
}

/** Keeps the state in memory (tests, benchmarks). */
export function memoryIndexState(): IndexStateStore {
  let state: IndexState | undefined;
  return {
    load: () => (state ? { ...state, hashes: { ...state.hashes } } : undefined),
    save: (next) => {
      state = { ...next, hashes: { ...next.hashes } };
    },
  };
}
