/** Characters of Windows-1252 above 0x7F that are not Latin-1 (the 0x80–0x9F block). */
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

const isWinAnsi = (char: string): boolean => {
  const code = char.codePointAt(0)!;
  return code === 0x0a || code === 0x09 || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRAS.has(char);
};

/**
 * Text the PDF's built-in Helvetica can show: it only has the WinAnsi (Windows-1252) glyphs.
 * Letters outside it lose their accents when that makes them WinAnsi (ő -> o), anything else
 * becomes `?`, instead of the garbage glyphs pdfkit would otherwise print.
 */
export function winAnsiText(text: string): string {
  let result = '';
  for (const char of text) {
    if (isWinAnsi(char)) {
      result += char;
      continue;
    }
    const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
    result += base.length > 0 && [...base].every(isWinAnsi) ? base : '?';
  }
  return result;
}
