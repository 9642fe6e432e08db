import { readFileSync } from 'node:fs';
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

/** The search team's editorial sets: `mf-search/server/search-sets/`. */
export const SEARCH_SETS_FOLDER = fileURLToPath(new URL('../../search-sets/', import.meta.url));

function readSetFile(fileName: string, parseItem: (raw: unknown) => unknown): SearchSetFile {
  const path = `${SEARCH_SETS_FOLDER}${fileName}`;
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
