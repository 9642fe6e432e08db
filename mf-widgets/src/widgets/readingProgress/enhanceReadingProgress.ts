import type { WidgetEnv } from '../../enhance/env.js';
import { MarkupError, requireChild } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { nextFrame, perFrame } from '../shared/frame.js';

/** Class that hides the bar once the article is read to its end (styled by the shell). */
export const READING_COMPLETE_CLASS = 'is-complete';

/**
 * Share of the article read, 0..1: 0 while its top is below the viewport's top, 1 once its
 * bottom reached the viewport's bottom. An article shorter than the viewport counts as read.
 */
export function readingProgress(articleTop: number, articleHeight: number, viewportHeight: number): number {
  const scrollable = articleHeight - viewportHeight;
  if (scrollable <= 0) return 1;
  return Math.min(1, Math.max(0, -articleTop / scrollable));
}

/**
 * Reading-progress bar (`[data-reading-progress]` with `.reading-progress__bar`) over the
 * article `[data-article-body]` (or the element named by `data-reading-progress-target`).
 * The bar scales with the share read; at 100% the bar gets `is-complete` and hides.
 */
export function enhanceReadingProgress(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const bar = requireChild(element, '.reading-progress__bar', 'progress bar');
    const targetId = element.dataset.readingProgressTarget;
    const article = targetId ? env.document.getElementById(targetId) : env.document.querySelector<HTMLElement>('[data-article-body]');
    if (!article) throw new MarkupError('missing the article it measures ([data-article-body])');

    const update = () => {
      const rect = article.getBoundingClientRect();
      const progress = readingProgress(rect.top, rect.height, env.window.innerHeight);
      bar.style.transform = `scaleX(${progress})`;
      element.classList.toggle(READING_COMPLETE_CLASS, progress >= 1);
    };
    const schedule = perFrame(env.window, undo, update);
    undo.listen(env.window, 'scroll', schedule, { passive: true });
    undo.listen(env.window, 'resize', schedule, { passive: true });
    undo.defer(() => {
      bar.style.removeProperty('transform');
      element.classList.remove(READING_COMPLETE_CLASS);
    });
    nextFrame(env.window, undo, update);
  });
}
