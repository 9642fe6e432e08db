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
  /** `foldedEnds[i]` = original offset after the character that produced folded char i (for prefix marks). */
  foldedEnds: number[];
}

function isSpaceCode(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

/**
 * Splits text like Typesense's default tokenizer: words are separated by
 * whitespace; special characters inside a word are dropped ("e-mail" → "email").
 */
export function tokenizeWithOffsets(text: string): Token[] {
  const tokens: Token[] = [];
  let term = '';
  let start = -1;
  let end = -1;
  let foldedEnds: number[] = [];
  const flush = (): void => {
    if (term.length > 0) tokens.push({ term, start, end, foldedEnds });
    term = '';
    start = -1;
    end = -1;
    foldedEnds = [];
  };
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      if (isSpaceCode(code)) flush();
      else if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90)) {
        if (start < 0) start = i;
        term += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i];
        foldedEnds.push(i + 1);
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
        if (start < 0) start = i;
        term += f;
        foldedEnds.push(next);
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
  let term = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      if (isSpaceCode(code)) {
        if (term) terms.push(term);
        term = '';
      } else if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) term += text[i];
      else if (code >= 65 && code <= 90) term += String.fromCharCode(code + 32);
      continue;
    }
    if (isSpaceCode(code)) {
      if (term) terms.push(term);
      term = '';
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i) ?? 0);
    if (ch.length === 2) i++;
    for (const f of foldChar(ch)) if (isWordChar(f)) term += f;
  }
  if (term) terms.push(term);
  return terms;
}

/** The folded form of a whole value, words joined by single spaces (used for exact string filters). */
export function foldedKey(text: string): string {
  return tokenize(text).join(' ');
}
