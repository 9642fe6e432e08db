import { ApiError } from '../api-error.js';
import { tokenize } from '../text/tokenize.js';

/** One synonym definition as Typesense 30 stores and shows it. */
export interface SynonymItem {
  id: string;
  /** Raw root ("" = multi-way). */
  root: string;
  synonyms: string[];
  locale?: string;
  symbols_to_index?: string[];
}

/** A parsed synonym item with folded word sequences for matching. */
export interface CompiledSynonym {
  item: SynonymItem;
  rootWords: string[];
  synonymWords: string[][];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates one synonym item with Typesense's messages (src/synonym_index.cpp `synonym_t::parse`).
 * `id` comes from the URL for item routes, from the body inside a set.
 */
export function parseSynonymItem(raw: unknown, idFromPath?: string): SynonymItem {
  if (!isPlainObject(raw)) throw new ApiError(400, 'Bad JSON.');
  const id = idFromPath ?? raw.id;
  if (id === undefined) throw new ApiError(400, 'Missing `id` field.');
  if (typeof id !== 'string' || id === '') throw new ApiError(400, 'Missing `id` field.');
  const synonyms = raw.synonyms;
  if (!Array.isArray(synonyms) || synonyms.length === 0) throw new ApiError(400, 'Could not find an array of `synonyms`');
  if (raw.locale !== undefined && typeof raw.locale !== 'string') throw new ApiError(400, 'Synonym `locale` should be a string.`');
  let symbols: string[] | undefined;
  if (raw.symbols_to_index !== undefined) {
    const value = raw.symbols_to_index;
    if (!Array.isArray(value) || value.length === 0 || typeof value[0] !== 'string') {
      throw new ApiError(400, 'Synonym `symbols_to_index` should be an array of strings.');
    }
    if (value.some((s) => typeof s !== 'string' || s.length !== 1)) {
      throw new ApiError(400, 'Synonym `symbols_to_index` should be an array of single character symbols.');
    }
    symbols = value as string[];
  }
  let root = '';
  if (raw.root !== undefined) {
    if (typeof raw.root !== 'string') throw new ApiError(400, 'Key `root` should be a string.');
    root = raw.root;
  }
  const texts: string[] = [];
  for (const synonym of synonyms) {
    if (typeof synonym !== 'string' || synonym === '') throw new ApiError(400, 'Could not find a valid string array of `synonyms`');
    texts.push(synonym);
  }
  const item: SynonymItem = { id, root, synonyms: texts };
  if (typeof raw.locale === 'string' && raw.locale !== '') item.locale = raw.locale;
  if (symbols) item.symbols_to_index = symbols;
  return item;
}

export function compileSynonym(item: SynonymItem): CompiledSynonym {
  return {
    item,
    rootWords: item.root ? tokenize(item.root) : [],
    synonymWords: item.synonyms.map((s) => tokenize(s)).filter((words) => words.length > 0),
  };
}

function indexOfSequence(words: string[], sequence: string[]): number {
  if (sequence.length === 0 || sequence.length > words.length) return -1;
  outer: for (let i = 0; i + sequence.length <= words.length; i++) {
    for (let k = 0; k < sequence.length; k++) if (words[i + k] !== sequence[k]) continue outer;
    return i;
  }
  return -1;
}

/** Most alternative queries produced from one query (a bound on work per search). */
const MAX_ALTERNATIVES = 16;

/**
 * Alternative queries from synonyms, like Typesense's synonym reduction: a multi-way
 * definition replaces any of its phrases found (as consecutive words) in the query by
 * each of the others; a one-way definition replaces its root by each synonym. Alternatives
 * are expanded again (so two definitions combine) up to a bound; the original query is not
 * included.
 */
export function synonymAlternatives(words: string[], synonyms: CompiledSynonym[]): string[][] {
  const seen = new Set<string>([words.join(' ')]);
  const alternatives: string[][] = [];
  const queue: string[][] = [words];
  while (queue.length > 0 && alternatives.length < MAX_ALTERNATIVES) {
    const current = queue.shift() as string[];
    for (const synonym of synonyms) {
      const sources = synonym.rootWords.length > 0 ? [synonym.rootWords] : synonym.synonymWords;
      for (const source of sources) {
        const at = indexOfSequence(current, source);
        if (at < 0) continue;
        for (const target of synonym.synonymWords) {
          if (target === source) continue;
          const next = [...current.slice(0, at), ...target, ...current.slice(at + source.length)];
          const key = next.join(' ');
          if (seen.has(key)) continue;
          seen.add(key);
          alternatives.push(next);
          queue.push(next);
          if (alternatives.length >= MAX_ALTERNATIVES) return alternatives;
        }
      }
    }
  }
  return alternatives;
}
