import { foldChar, isWordChar } from './fold.js';

/**
 * A word of a text: its folded form for matching, and where it sits in the
 * original text so highlighting can wrap the original characters.
 */
export interface Token {
  /** Folded word (lower case, no diacritics, only letters and digits). */
  term: string;
  /** Offset of the first word character in the original text. */
  start: number;
  /** Offset after the last word character in the original text. */
  end: number;
  /**
   * `foldedEnds[i]` = original offset after the character that produced folded char i (for prefix
   * marks). Undefined for a word of plain ASCII letters and digits with nothing dropped inside,
   * where folded char i is original char `start + i` (read it through `foldedEnd`).
   */
  foldedEnds: number[] | undefined;
}

/** Original offset after the character that produced the token's folded char `index` (its end beyond the word). */
export function foldedEnd(token: Token, index: number): number {
  if (token.foldedEnds) return token.foldedEnds[index] ?? token.end;
  return index >= 0 && index < token.end - token.start ? token.start + index + 1 : token.end;
}

function isSpaceCode(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

/**
 * Splits text like Typesense's default tokenizer: words are separated by
 * whitespace; special characters inside a word are dropped ("e-mail" → "email").
 * A plain ASCII word is cut out with one slice (no per-character strings, no offsets array: highlighting
 * tokenises every returned field of every hit, ~1 MB of garbage per search before); a word with a
 * dropped or folded character is built character by character.
 */
export function tokenizeWithOffsets(text: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  let end = -1;
  // Undefined while the word is contiguous ASCII letters and digits; then `term` is unused.
  let foldedEnds: number[] | undefined;
  let term = '';
  const flush = (): void => {
    if (start >= 0) tokens.push({ term: foldedEnds ? term : text.slice(start, end).toLowerCase(), start, end, foldedEnds });
    start = -1;
    end = -1;
    foldedEnds = undefined;
    term = '';
  };
  /** The word so far as folded characters with their offsets, to go on character by character. */
  const irregular = (): number[] => {
    if (foldedEnds) return foldedEnds;
    foldedEnds = [];
    if (start >= 0) {
      term = text.slice(start, end).toLowerCase();
      for (let k = start + 1; k <= end; k++) foldedEnds.push(k);
    }
    return foldedEnds;
  };
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      if (isSpaceCode(code)) flush();
      else if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90)) {
        if (start < 0) start = i;
        else if (foldedEnds || i !== end) {
          // Something was dropped or folded inside the word: from here on, character by character.
          irregular().push(i + 1);
          term += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i];
        }
        end = i + 1;
      }
      i++;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    const next = i + ch.length;
    if (isSpaceCode(code)) flush();
    else {
      for (const f of foldChar(ch)) {
        if (!isWordChar(f)) continue;
        const ends = irregular();
        if (start < 0) start = i;
        term += f;
        ends.push(next);
        end = next;
      }
    }
    i = next;
  }
  flush();
  return tokens;
}

/** Folded terms of a text, in order (duplicates kept). Faster than `tokenizeWithOffsets` for indexing. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  // Lower-case once; plain ASCII words are then cut out with one slice each
  // (no per-character string building, which floods the GC on 100k documents).
  const lower = text.toLowerCase();
  let start = -1;
  let clean = true; // the current word has only [a-z0-9]
  const flush = (end: number): void => {
    if (start < 0) return;
    const word = clean ? lower.slice(start, end) : foldWord(lower.slice(start, end));
    if (word) terms.push(word);
    start = -1;
    clean = true;
  };
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    if (isSpaceCode(code)) {
      flush(i);
      continue;
    }
    if (start < 0) start = i;
    if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57))) clean = false;
  }
  flush(lower.length);
  return terms;
}

/** Folds a whitespace-free chunk: diacritics removed, only letters and digits kept. */
function foldWord(chunk: string): string {
  let word = '';
  for (const ch of chunk) {
    const code = ch.charCodeAt(0);
    if (code < 128) {
      if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) word += ch;
      else if (code >= 65 && code <= 90) word += String.fromCharCode(code + 32);
      continue;
    }
    for (const f of foldChar(ch)) if (isWordChar(f)) word += f;
  }
  return word;
}

/** The folded form of a whole value, words joined by single spaces (used for exact string filters). */
export function foldedKey(text: string): string {
  return tokenize(text).join(' ');
}
