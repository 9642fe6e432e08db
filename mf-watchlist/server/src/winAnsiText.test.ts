import { describe, expect, it } from 'vitest';
import { winAnsiText } from './winAnsiText.js';

describe('winAnsiText', () => {
  it('keeps ASCII, Latin-1 and the Windows-1252 punctuation', () => {
    const text = 'Zürich – “quotes” … € naïve façade ß';
    expect(winAnsiText(text)).toBe(text);
  });

  it('strips accents that WinAnsi lacks and replaces what it cannot show', () => {
    expect(winAnsiText('Łódź Kraków Ő 🙂 中')).toBe('?ódz Kraków O ? ?');
  });
});
