import { tokenize } from '../text/tokenize.js';

/**
 * Longest query word kept, in characters: Typesense cuts each query token at 100 bytes
 * (`Collection::process_tokens`: `if(sub_token.size() > 100) sub_token.erase(100)`). Every
 * word of the query is searched; the work on long queries is bounded in `text-match.ts`.
 */
const MAX_WORD_LENGTH = 100;

/** Folded query words of `q`, the words excluded with a leading `-`, and quoted phrases. */
export function parseQueryWords(q: string): { words: string[]; excludedWords: string[]; phrases: string[][] } {
  const words: string[] = [];
  const excludedWords: string[] = [];
  const phrases: string[][] = [];
  // "quoted text" is a phrase: its words must appear next to each other, exactly (no typos, no prefix).
  const rest = q.replace(/"([^"]*)"/g, (_match, phrase: string) => {
    const phraseWords = tokenize(phrase);
    if (phraseWords.length > 0) {
      phrases.push(phraseWords);
      words.push(...phraseWords);
    }
    return ' ';
  });
  for (const raw of rest.split(/\s+/)) {
    if (!raw) continue;
    if (raw.length > 1 && raw.startsWith('-')) excludedWords.push(...tokenize(raw.slice(1)));
    else words.push(...tokenize(raw.replace(/"/g, '')));
  }
  return { words: words.map((word) => (word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word)), excludedWords, phrases };
}

/** True when `terms` contains `phrase` as consecutive words. */
function containsPhrase(terms: string[], phrase: string[]): boolean {
  outer: for (let i = 0; i + phrase.length <= terms.length; i++) {
    for (let k = 0; k < phrase.length; k++) if (terms[i + k] !== phrase[k]) continue outer;
    return true;
  }
  return false;
}

/** True when one of the searched fields of the document contains every phrase. */
export function documentHasPhrases(valueOf: (field: string) => unknown, fields: string[], phrases: string[][]): boolean {
  const fieldTerms: string[][] = [];
  for (const field of fields) {
    const value = valueOf(field);
    const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    for (const text of values) fieldTerms.push(tokenize(text));
  }
  return phrases.every((phrase) => fieldTerms.some((terms) => containsPhrase(terms, phrase)));
}

