import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildArticles } from '../scripts/corpus/build-articles.js';
import { articlesFileUrl } from './index.js';

describe('corpus sources', () => {
  it('data/articles.json is exactly what the composer builds from the hand-written specs (run build:corpus after editing them)', () => {
    const onDisk: unknown = JSON.parse(readFileSync(articlesFileUrl, 'utf8'));
    expect(onDisk).toEqual(buildArticles());
  });
});
