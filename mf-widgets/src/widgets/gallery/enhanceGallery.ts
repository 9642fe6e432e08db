import type { WidgetEnv } from '../../enhance/env.js';
import { MarkupError, requireChild, requireChildren } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { createSlider } from '../shared/slider.js';
import { createLightbox, type Lightbox, type LightboxItem } from './lightbox.js';
import { GALLERY_SLIDER_MOTION } from './gallerySliderMotion.js';

/**
 * Image gallery (`[data-widget="gallery"]`). Server markup is a list of figures with captions
 * (`[data-slider-slide]` in `[data-slider-track]` in `[data-slider-viewport]`), each image
 * wrapped in a link to the full picture (`a[data-lightbox-item]`), plus hidden slider controls
 * (`[data-slider-controls]` with `[data-slider-prev]`, `[data-slider-next]`, `[data-slider-status]`).
 * Enhanced, the list becomes a one-picture slider (GALLERY_SLIDE_SPEED_MS, GALLERY_SLIDE_GAP_PX,
 * buttons, arrows, swipe) and a picture link opens the lightbox at that picture.
 */
export function enhanceGallery(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const viewport = requireChild(element, '[data-slider-viewport]', 'slider viewport');
    const track = requireChild(viewport, '[data-slider-track]', 'slider track');
    const slides = requireChildren(track, ':scope > [data-slider-slide]', 'slides');
    const controls = requireChild(element, '[data-slider-controls]', 'slider controls');
    const prev = requireChild<HTMLButtonElement>(controls, 'button[data-slider-prev]', 'previous button');
    const next = requireChild<HTMLButtonElement>(controls, 'button[data-slider-next]', 'next button');
    const status = controls.querySelector<HTMLElement>('[data-slider-status]');
    const links = slides.map((slide) => requireChild<HTMLAnchorElement>(slide, 'a[data-lightbox-item]', 'picture link'));
    const items: LightboxItem[] = links.map((link, position) => {
      const image = link.querySelector('img');
      if (!image) throw new MarkupError(`picture link ${position + 1} has no image`);
      return {
        src: link.getAttribute('href') ?? image.currentSrc ?? image.src,
        alt: image.alt,
        caption: slides[position]!.querySelector('figcaption')?.textContent?.trim() ?? '',
      };
    });

    undo.removeAttribute(controls, 'hidden');
    createSlider({
      env,
      undo,
      root: element,
      viewport,
      track,
      slides,
      prev,
      next,
      status,
      ...GALLERY_SLIDER_MOTION,
    });

    const name = element.getAttribute('aria-label') ?? 'Gallery';
    let lightbox: Lightbox | null = null;
    links.forEach((link, position) => {
      undo.setAttribute(link, 'aria-haspopup', 'dialog');
      undo.listen(link, 'click', (event) => {
        if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        lightbox ??= createLightbox(items, `${name}: image viewer`, env, undo);
        lightbox.open(position, link);
      });
    });
  });
}
