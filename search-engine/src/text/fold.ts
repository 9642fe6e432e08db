/**
 * Text folding shared by indexing, querying, filtering and highlighting:
 * lower case, diacritics removed (NFKD + combining marks dropped), a few
 * ligatures expanded. Typesense's default locale behaves the same way.
 */

const COMBINING_MARK = /\p{M}/gu;
const SPECIAL_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', þ: 'th', ı: 'i' };
const foldCache = new Map<string, string>();

/** Folds one character (code point) to its searchable form; may return '' or several chars. */
export function foldChar(ch: string): string {
  const code = ch.charCodeAt(0);
  // Fast path for ASCII: only letters need lower-casing; everything else is kept for the caller to classify.
  if (ch.length === 1 && code < 128) {
    return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch;
  }
  const cached = foldCache.get(ch);
  if (cached !== undefined) return cached;
  const lower = ch.toLowerCase();
  const folded = SPECIAL_FOLDS[lower] ?? lower.normalize('NFKD').replace(COMBINING_MARK, '');
  if (foldCache.size < 10_000) foldCache.set(ch, folded);
  return folded;
}

/** True for characters that are part of a word (letters and digits of any script). */
export function isWordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  }
  return /[\p{L}\p{N}]/u.test(ch);
}
