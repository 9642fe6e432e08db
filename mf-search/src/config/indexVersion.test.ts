import { describe, expect, it } from 'vitest';
import { createIndexVersionReader, createVersionedAnswerCache, UNKNOWN_INDEX_VERSION, versionOfResult } from './indexVersion.js';

function clock() {
  let time = 0;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('createIndexVersionReader', () => {
  it('reads at most once per maxAgeMs, shares a read in flight, and counts a failed read as unknown', async () => {
    const time = clock();
    let version = 'v1';
    let reads = 0;
    let fail = false;
    const reader = createIndexVersionReader({
      read: async () => {
        reads += 1;
        if (fail) throw new Error('down');
        return version;
      },
      maxAgeMs: 1000,
      now: time.now,
    });
    expect(reader.known()).toBeUndefined();
    expect(await Promise.all([reader.current(), reader.current()])).toEqual(['v1', 'v1']);
    expect(reads).toBe(1);
    version = 'v2';
    time.advance(999);
    expect(await reader.current()).toBe('v1');
    time.advance(1);
    expect(await reader.current()).toBe('v2');
    expect(reader.known()).toBe('v2');
    fail = true;
    time.advance(1000);
    expect(await reader.current()).toBe(UNKNOWN_INDEX_VERSION);
  });
});

describe('createVersionedAnswerCache', () => {
  it('reuses an answer while the version stays, and asks again once the version changed', async () => {
    const time = clock();
    let version = 'v1';
    const reader = createIndexVersionReader({ read: async () => version, maxAgeMs: 1000, now: time.now });
    const cache = createVersionedAnswerCache<string>(reader, { ttlMs: 120_000, maxEntries: 10, now: time.now });
    let fetches = 0;
    const fetchAnswer = async () => `answer ${++fetches} (${version})`;
    expect(await cache('q=team', fetchAnswer)).toBe('answer 1 (v1)');
    time.advance(60_000);
    expect(await cache('q=team', fetchAnswer)).toBe('answer 1 (v1)');
    // The index changed: the next read of the version drops the old answer.
    version = 'v2';
    time.advance(1000);
    expect(await cache('q=team', fetchAnswer)).toBe('answer 2 (v2)');
    expect(await cache('q=team', fetchAnswer)).toBe('answer 2 (v2)');
    // Past the lifetime an answer is fetched again anyway.
    time.advance(120_000);
    expect(await cache('q=team', fetchAnswer)).toBe('answer 3 (v2)');
  });

  it('never reuses a failed answer', async () => {
    const reader = createIndexVersionReader({ read: async () => 'v1' });
    const cache = createVersionedAnswerCache<string>(reader, { ttlMs: 120_000, maxEntries: 10 });
    await expect(cache('q', () => Promise.reject(new Error('503')))).rejects.toThrow('503');
    expect(await cache('q', async () => 'ok')).toBe('ok');
  });
});

describe('versionOfResult', () => {
  it('reads the version document, or unknown without one', () => {
    expect(versionOfResult({ hits: [{ document: { id: 'current', version: 'abc' } }] })).toBe('abc');
    expect(versionOfResult({ hits: [] })).toBe(UNKNOWN_INDEX_VERSION);
    // The learned re-ranking's hash is part of it (server/src/reranking/learnedCurationSet.ts).
    expect(versionOfResult({ hits: [{ document: { id: 'current', version: 'abc', curations: 'f00' } }] })).toBe('abc+f00');
    expect(versionOfResult({ hits: [{ document: { id: 'current', curations: 'f00' } }] })).toBe(UNKNOWN_INDEX_VERSION);
    expect(versionOfResult({ hits: [{ document: { id: 'current', version: 'abc', popularity: 'b0b' } }] })).toBe('abc~b0b');
    expect(versionOfResult({ hits: [{ document: { id: 'current', version: 'abc', curations: 'f00', popularity: 'b0b' } }] })).toBe('abc+f00~b0b');
    expect(versionOfResult({ error: 'Not found.', code: 404 })).toBe(UNKNOWN_INDEX_VERSION);
    expect(versionOfResult(undefined)).toBe(UNKNOWN_INDEX_VERSION);
  });
});
