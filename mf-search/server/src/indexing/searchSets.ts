import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCurationItem, parseSynonymItem } from '@khs/search-engine';

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

/**
 * The search team's editorial sets: `mf-search/server/search-sets/` (resolved from the module's
 * path string: under jsdom, in the remote's component tests, `URL` is jsdom's).
 */
export const SEARCH_SETS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../search-sets');

function readSetFile(fileName: string, parseItem: (raw: unknown) => unknown): SearchSetFile {
  const setPath = path.join(SEARCH_SETS_FOLDER, fileName);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(setPath, 'utf8'));
  } catch (error) {
    throw new Error(`${setPath}: not valid JSON (${(error as Error).message})`);
  }
  const set = parsed as Partial<SearchSetFile>;
  if (typeof set !== 'object' || set === null || typeof set.name !== 'string' || set.name === '' || !Array.isArray(set.items)) {
    throw new Error(`${setPath}: expected { "name": string, "items": [...] }`);
  }
  set.items.forEach((item, index) => {
    try {
      parseItem(item);
    } catch (error) {
      throw new Error(`${setPath}: item ${index + 1}: ${(error as Error).message}`);
    }
  });
  return { name: set.name, items: set.items };
}

/**
 * The search team's synonym and curation sets (`mf-search/server/search-sets/synonyms.json`,
 * `curations.json`), checked item by item with the server's own rules so a mistake names the
 * file and item instead of failing the upload.
 */
export function loadSearchSets(): ArticleSearchSets {
  return {
    synonymSets: [readSetFile('synonyms.json', parseSynonymItem)],
    curationSets: [readSetFile('curations.json', parseCurationItem)],
  };
}
