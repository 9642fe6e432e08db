import { describe, expect, it } from 'vitest';
import { foldChar, isWordChar } from '../src/text/fold.js';
import { foldedEnd, tokenizeWithOffsets } from '../src/text/tokenize.js';
import { prng } from '../bench/bench-support.js';

/** The former tokenizer (every word built character by character, offsets always listed): the reference. */
function reference(text: string): { term: string; start: number; end: number; foldedEnds: number[] }[] {
  const tokens: { term: string; start: number; end: number; foldedEnds: number[] }[] = [];
  const isSpaceCode = (code: number): boolean => code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
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

const PIECES = ['a', 'B', 'z', '7', 'Q', '-', "'", '.', ',', ' ', ' ', '\n', '\u00a0', 'é', 'Ü', 'ß', 'æ', 'ø', '😀', '–', 'İ', 'ﬁ', 'e-mail', 'Café', 'naïve', 'ABC', '123'];

describe('tokenizeWithOffsets', () => {
  it('gives the same words, offsets and prefix ends as the character-by-character tokenizer', () => {
    const random = prng(11);
    const texts = ['', 'Leadership', 'e-mail résumé', ' Straße  ÆON-x ', 'a😀b', 'don\'t stop', 'ﬁne ǅx', 'x–y'];
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const length = Math.floor(random() * 12);
      for (let k = 0; k < length; k++) text += PIECES[Math.floor(random() * PIECES.length)];
      texts.push(text);
    }
    for (const text of texts) {
      const expected = reference(text);
      const actual = tokenizeWithOffsets(text);
      expect(actual.map(({ term, start, end }) => ({ term, start, end })), text).toEqual(expected.map(({ term, start, end }) => ({ term, start, end })));
      actual.forEach((token, i) => {
        const want = expected[i]?.foldedEnds ?? [];
        for (let k = -1; k <= token.term.length + 1; k++) expect(foldedEnd(token, k), `${text} #${i} @${k}`).toBe(want[k] ?? token.end);
      });
    }
  });

  it('keeps no offsets array for plain ASCII words, and one where a character was dropped or folded', () => {
    const [plain, dropped, folded] = tokenizeWithOffsets('Leadership e-mail Café');
    expect(plain).toEqual({ term: 'leadership', start: 0, end: 10, foldedEnds: undefined });
    expect(dropped).toEqual({ term: 'email', start: 11, end: 17, foldedEnds: [12, 14, 15, 16, 17] });
    expect(folded).toEqual({ term: 'cafe', start: 18, end: 22, foldedEnds: [19, 20, 21, 22] });
  });
});
