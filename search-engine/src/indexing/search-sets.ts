import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseCurationItem } from '../sets/curation-set.js';
import { parseSynonymItem } from '../sets/synonym-set.js';

/** A set as editors write it and as `PUT /synonym_sets/:name` / `PUT /curation_sets/:name` take it. */
export interface SearchSetFile {
  name: string;
  items: Record<string, unknown>[];
}

/** The synonym sets and curation sets to attach to the articles collection. */
export interface ArticleSearchSets {
  synonymSets: SearchSetFile[];
  curationSets: SearchSetFile[];
}

const require = createRequire(import.meta.url);

function readSetFile(specifier: string, parseItem: (raw: unknown) => unknown): SearchSetFile {
  const path = require.resolve(specifier);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${(error as Error).message})`);
  }
  const file = parsed as Partial<SearchSetFile>;
  if (typeof file !== 'object' || file === null || typeof file.name !== 'string' || file.name === '' || !Array.isArray(file.items)) {
    throw new Error(`${path}: expected { "name": string, "items": [...] }`);
  }
  file.items.forEach((item, index) => {
    try {
      parseItem(item);
    } catch (error) {
      throw new Error(`${path}: item ${index + 1}: ${(error as Error).message}`);
    }
  });
  return { name: file.name, items: file.items };
}

/**
 * The editors' search sets from `@khs/content` (`data/search-synonyms.json`,
 * `data/search-curations.json`), checked item by item with the server's own rules so a
 * mistake names the file and item instead of failing the upload.
 */
export function loadContentSearchSets(): ArticleSearchSets {
  return {
    synonymSets: [readSetFile('@khs/content/data/search-synonyms.json', parseSynonymItem)],
    curationSets: [readSetFile('@khs/content/data/search-curations.json', parseCurationItem)],
  };
}
