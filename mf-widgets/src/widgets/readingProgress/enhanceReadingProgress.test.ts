// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { MarkupError } from '../../enhance/markup.js';
import { testEnv } from '../../testing/testEnv.js';
import { enhanceReadingProgress, readingProgress } from './enhanceReadingProgress.js';

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

describe('reading progress', () => {
  it('computes the share read from the article position', () => {
    expect(readingProgress(100, 3000, 800)).toBe(0);
    expect(readingProgress(-1100, 3000, 800)).toBeCloseTo(0.5);
    expect(readingProgress(-2200, 3000, 800)).toBe(1);
    expect(readingProgress(-5000, 3000, 800)).toBe(1);
    expect(readingProgress(0, 500, 800)).toBe(1);
  });

  it('scales the bar with the scroll and hides it at 100%', async () => {
    document.body.innerHTML = `<div class="reading-progress" data-reading-progress><div class="reading-progress__bar"></div></div>
      <article data-article-body></article>`;
    const article = document.querySelector('article')!;
    let top = 0;
    vi.spyOn(article, 'getBoundingClientRect').mockImplementation(() => ({ top, height: 2000 + window.innerHeight }) as DOMRect);
    const element = document.querySelector<HTMLElement>('[data-reading-progress]')!;
    const bar = element.querySelector<HTMLElement>('.reading-progress__bar')!;
    const cleanup = enhanceReadingProgress(element, testEnv());
    await nextFrame();
    expect(bar.style.transform).toBe('scaleX(0)');
    top = -1000;
    window.dispatchEvent(new Event('scroll'));
    await nextFrame();
    expect(bar.style.transform).toBe('scaleX(0.5)');
    expect(element.classList.contains('is-complete')).toBe(false);
    top = -2000;
    window.dispatchEvent(new Event('scroll'));
    await nextFrame();
    expect(element.classList.contains('is-complete')).toBe(true);
    cleanup();
    expect(element.classList.contains('is-complete')).toBe(false);
    expect(bar.style.transform).toBe('');
  });

  it('refuses markup without an article to measure', () => {
    document.body.innerHTML = '<div data-reading-progress><div class="reading-progress__bar"></div></div>';
    expect(() => enhanceReadingProgress(document.querySelector('[data-reading-progress]')!, testEnv())).toThrow(MarkupError);
  });
});
