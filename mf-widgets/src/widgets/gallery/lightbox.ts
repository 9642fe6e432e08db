import { LIGHTBOX_PADDING_BOTTOM_PX, LIGHTBOX_PADDING_TOP_PX } from 'contracts';
import type { WidgetEnv } from '../../enhance/env.js';
import type { UndoStack } from '../../enhance/undo.js';
import { createModal } from '../shared/modal.js';
import { createSlider, type SliderController } from '../shared/slider.js';
import { GALLERY_SLIDER_MOTION } from './gallerySliderMotion.js';

/** One picture shown in the lightbox. */
export interface LightboxItem {
  src: string;
  alt: string;
  caption: string;
}

export interface Lightbox {
  /** Opens at `index`; focus returns to `trigger` on close. */
  open(index: number, trigger: HTMLElement): void;
  element: HTMLElement;
}

function button(doc: Document, className: string, label: string, symbol: string): HTMLButtonElement {
  const element = doc.createElement('button');
  element.type = 'button';
  element.className = className;
  element.setAttribute('aria-label', label);
  element.textContent = symbol;
  return element;
}

/**
 * The gallery's lightbox: a modal image viewer with caption, status, previous/next buttons,
 * arrow keys and swipe, built on first use and appended to `<body>`. Padding above and below
 * the image comes from LIGHTBOX_PADDING_TOP_PX / LIGHTBOX_PADDING_BOTTOM_PX.
 */
export function createLightbox(items: LightboxItem[], label: string, env: WidgetEnv, undo: UndoStack): Lightbox {
  const doc = env.document;
  const element = doc.createElement('div');
  element.className = 'khs-widgets-lightbox';
  element.setAttribute('role', 'dialog');
  element.setAttribute('aria-modal', 'true');
  element.setAttribute('aria-label', label);
  element.style.setProperty('--lightbox-padding-top', `${LIGHTBOX_PADDING_TOP_PX}px`);
  element.style.setProperty('--lightbox-padding-bottom', `${LIGHTBOX_PADDING_BOTTOM_PX}px`);

  const viewport = doc.createElement('div');
  viewport.className = 'khs-widgets-lightbox__viewport';
  const track = doc.createElement('div');
  track.className = 'khs-widgets-lightbox__track';
  const slides = items.map((item) => {
    const slide = doc.createElement('div');
    slide.className = 'khs-widgets-lightbox__slide';
    const figure = doc.createElement('figure');
    figure.className = 'khs-widgets-lightbox__figure';
    const image = doc.createElement('img');
    image.className = 'khs-widgets-lightbox__image';
    image.alt = item.alt;
    image.decoding = 'async';
    // Why: the lightbox is built on first open; images load then, not with the page.
    image.src = item.src;
    const caption = doc.createElement('figcaption');
    caption.className = 'khs-widgets-lightbox__caption';
    caption.textContent = item.caption;
    figure.append(image, caption);
    slide.append(figure);
    track.append(slide);
    return slide;
  });
  viewport.append(track);
  const status = doc.createElement('p');
  status.className = 'khs-widgets-lightbox__status';
  status.setAttribute('aria-live', 'polite');
  const prev = button(doc, 'khs-widgets-lightbox__prev', 'Previous image', '‹');
  const next = button(doc, 'khs-widgets-lightbox__next', 'Next image', '›');
  const close = button(doc, 'khs-widgets-lightbox__close', 'Close image viewer', '×');
  element.append(close, viewport, status, prev, next);
  undo.insert(element, doc.body);

  let slider: SliderController | null = null;
  const modal = createModal({
    element,
    closeButtons: [close],
    env,
    undo,
    initialFocus: () => close,
    onKeydown: (event) => {
      if (event.key === 'ArrowLeft') slider?.prev();
      else if (event.key === 'ArrowRight') slider?.next();
      else if (event.key === 'Home') slider?.goTo(0);
      else if (event.key === 'End') slider?.goTo(items.length - 1);
      else return;
      event.preventDefault();
    },
  });
  slider = createSlider({
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

  return {
    element,
    open(index, trigger) {
      // Jump without animation to the chosen picture, then let later moves animate.
      const speed = element.style.getPropertyValue('--slider-speed');
      element.style.setProperty('--slider-speed', '0ms');
      slider.goTo(index);
      element.style.setProperty('--slider-speed', speed);
      modal.open(trigger);
    },
  };
}
