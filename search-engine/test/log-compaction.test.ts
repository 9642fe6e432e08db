import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SearchEngine } from '../src/engine.js';
import { CollectionStore } from '../src/persistence/collection-store.js';

// Embedded only: the change log of the embedded server's data folder.
describe('change log compaction', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'search-engine-log-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('folds a log that outgrew its threshold and the snapshot, without losing writes', () => {
    const engine = new SearchEngine(new CollectionStore(dataDir, 2_000));
    engine.createCollection({ name: 'notes', fields: [{ name: 'text', type: 'string' }] });
    for (let i = 0; i < 60; i++) {
      engine.importDocuments('notes', JSON.stringify({ id: `n${i}`, text: `note number ${i} with some words to take space` }), 'upsert', false, false);
    }
    engine.deleteDocument('notes', 'n0');
    const folder = join(dataDir, 'collections', readdirSync(join(dataDir, 'collections'))[0] as string);
    // The log was folded at least once, so it holds far fewer than 60 writes.
    expect(statSync(join(folder, 'log.jsonl')).size).toBeLessThan(4_000);
    expect(statSync(join(folder, 'documents.jsonl')).size).toBeGreaterThan(2_000);

    const reloaded = new SearchEngine(new CollectionStore(dataDir, 2_000));
    expect(reloaded.get('notes')?.size).toBe(59);
    expect(reloaded.get('notes')?.getDocument('n59')?.text).toBe('note number 59 with some words to take space');
    expect(reloaded.get('notes')?.getDocument('n0')).toBeUndefined();
  });
});
