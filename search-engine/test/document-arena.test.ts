import { describe, expect, it } from 'vitest';
import { Collection } from '../src/index/collection.js';
import { DocumentArena } from '../src/index/document-arena.js';
import { SearchEngine } from '../src/engine.js';
import { parseCollectionSchema } from '../src/schema/collection-schema.js';

const text = (i: number): string => `Document ${i}: leadership, feedback and coaching — naïve café ✓ ${'word '.repeat(i % 97)}`;

describe('document arena: documents stored once, shared by the writer and its readers', () => {
  it('reads back every document exactly, raw before the dictionary exists and deflated after', () => {
    const arena = DocumentArena.create();
    const places = Array.from({ length: 400 }, (_, i) => {
      const json = JSON.stringify({ id: String(i), body: text(i), tags: ['a', 'ü'] });
      return { json, place: arena.store(json) };
    });
    for (const { json, place } of places) expect(arena.read(...place)).toBe(json);
    // Deflated with the dictionary: the 400 documents take far less than their text.
    const textBytes = places.reduce((sum, { json }) => sum + Buffer.byteLength(json), 0);
    expect(arena.usedBytes).toBeLessThan(textBytes / 2);
  });

  it('a reader follows the writer placements of the same call and reads the same documents', () => {
    const writer = DocumentArena.create(true);
    const reader = DocumentArena.follow(writer.buffer);
    const before = writer.store(JSON.stringify({ id: 'x', v: 1 }));
    writer.takePlacements();
    const stored = Array.from({ length: 50 }, (_, i) => writer.store(JSON.stringify({ id: String(i), body: text(i) })));
    reader.follow(writer.takePlacements());
    for (let i = 0; i < 50; i++) {
      const place = reader.store('ignored: a reader never writes');
      expect(place).toEqual(stored[i]);
      expect(JSON.parse(reader.read(...place)).body).toBe(text(i));
    }
    expect(reader.followedAll).toBe(true);
    expect(() => reader.store('one too many')).toThrow(/did not place/);
    expect(reader.followedAll).toBe(false);
    expect(JSON.parse(reader.read(...before)).v).toBe(1);
  });

  it('a reader collection rebuilt from the writer keeps its sequence ids, documents and later changes', () => {
    const schema = parseCollectionSchema({ name: 'c', fields: [{ name: 'title', type: 'string' }, { name: 'n', type: 'int32', facet: true }] });
    const writerArena = DocumentArena.create(true);
    const writer = new Collection(schema, writerArena);
    for (let i = 0; i < 30; i++) writer.write({ id: String(i), title: text(i), n: i }, 'upsert');
    writer.delete('3');
    writer.write({ id: '5', title: 'changed', n: 500 }, 'upsert');
    writerArena.takePlacements();
    const reader = new Collection(parseCollectionSchema({ name: 'c', fields: [{ name: 'title', type: 'string' }, { name: 'n', type: 'int32', facet: true }] }), DocumentArena.follow(writerArena.buffer));
    reader.restoreFrom(writer.exportPlacements());
    expect(reader.size).toBe(29);
    expect([...reader.documentSeqs()]).toEqual([...writer.documentSeqs()]);
    expect(reader.getDocument('5')).toEqual({ id: '5', title: 'changed', n: 500 });
    expect(reader.getDocument('3')).toBeUndefined();
    // A later change, applied to both with the writer's placements.
    writer.write({ id: 'new', title: 'fresh', n: 7 }, 'upsert');
    writer.write({ id: '7', title: 'seven again', n: 77 }, 'upsert');
    reader.arena.follow(writerArena.takePlacements());
    reader.write({ id: 'new', title: 'fresh', n: 7 }, 'upsert');
    reader.write({ id: '7', title: 'seven again', n: 77 }, 'upsert');
    expect(reader.arena.followedAll).toBe(true);
    expect(reader.seqById.get('new')).toBe(writer.seqById.get('new'));
    expect(reader.getDocument('7')).toEqual({ id: '7', title: 'seven again', n: 77 });
    expect(reader.valueOf(reader.seqById.get('7') as number, 'n')).toBe(77);
  });

  it('compacts: replaced versions are dropped, live documents keep their sequence ids and text', () => {
    const engine = new SearchEngine(undefined);
    engine.createCollection({ name: 'c', fields: [{ name: 'title', type: 'string' }] });
    const lines = (round: number) => Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: String(i), title: `${text(i)} round ${round}` })).join('\n');
    for (let round = 0; round < 5; round++) engine.importDocuments('c', lines(round), 'upsert', false, false);
    const before = engine.arena.usedBytes;
    expect(engine.compactArena(Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(engine.compactArena(1)).toBe(true);
    expect(engine.arena.usedBytes).toBeLessThan(before / 3);
    const collection = engine.get('c') as Collection;
    expect(collection.arena).toBe(engine.arena);
    expect(engine.getDocument('c', '17')).toEqual({ id: '17', title: `${text(17)} round 4` });
    expect(collection.seqById.get('17')).toBe(17);
    engine.importDocuments('c', JSON.stringify({ id: '17', title: 'after compaction' }), 'upsert', false, false);
    expect(engine.getDocument('c', '17').title).toBe('after compaction');
  });
});
