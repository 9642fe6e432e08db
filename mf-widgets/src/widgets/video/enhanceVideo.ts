import type { WidgetEnv } from '../../enhance/env.js';
import { requireChild } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';

/**
 * Video with poster and play button (`[data-widget="video"]` with a `<video controls poster>`
 * and a hidden `button[data-video-play]`). Without script the native controls play it.
 * Enhanced, the poster shows with the play button over it; a press hides the button, gives the
 * video its controls and focus, and starts it. If the browser cannot play it, the
 * `[data-video-fallback]` text shows.
 */
export function enhanceVideo(element: HTMLElement, _env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const video = requireChild<HTMLVideoElement>(element, 'video', 'video');
    const button = requireChild<HTMLButtonElement>(element, 'button[data-video-play]', 'play button');
    const fallback = element.querySelector<HTMLElement>('[data-video-fallback]');
    undo.addClass(element, 'is-enhanced');
    undo.removeAttribute(video, 'controls');
    undo.removeAttribute(button, 'hidden');
    undo.defer(() => {
      video.pause();
      button.hidden = true;
      element.classList.remove('is-playing', 'has-failed');
      if (fallback) fallback.hidden = true;
    });

    const showFallback = (error?: unknown) => {
      element.classList.add('has-failed');
      if (fallback) fallback.hidden = false;
      if (error) console.warn('[mf-widgets] video could not start', error);
    };
    undo.listen(button, 'click', () => {
      button.hidden = true;
      element.classList.add('is-playing');
      video.controls = true;
      video.focus();
      try {
        const started = video.play();
        if (started && typeof started.catch === 'function') started.catch(showFallback);
      } catch (error) {
        showFallback(error);
      }
    });
    undo.listen(video, 'error', () => showFallback(), { capture: true });
  });
}
