import type { MediaWatch, WidgetEnv } from '../../enhance/env.js';
import type { UndoStack } from '../../enhance/undo.js';

export interface SliderOptions {
  env: WidgetEnv;
  undo: UndoStack;
  /** The element that carries the slider's CSS custom properties (the widget root). */
  root: HTMLElement;
  /** Clips the track; takes swipes. */
  viewport: HTMLElement;
  /** Moves by transform; its children are the slides. */
  track: HTMLElement;
  slides: HTMLElement[];
  prev: HTMLButtonElement | null;
  next: HTMLButtonElement | null;
  /** Gets "Slide 2 of 5"-style text after every move (a polite live region). */
  status: HTMLElement | null;
  /** Gap between slides (px); negative values overlap the slides' borders. */
  gapPx: number;
  /** Duration of a slide move (ms); 0 when reduced motion is asked for. */
  speedMs: number;
  /** When given and matching, two slides show at once; otherwise one. */
  twoSlidesWhen?: MediaWatch;
  /** Share of a slide's width a swipe must cover to change slide. */
  swipeRatio: number;
  /** Status text for the visible slides. */
  statusText?: (first: number, last: number, total: number) => string;
  onChange?: (index: number) => void;
}

export interface SliderController {
  goTo(index: number): void;
  next(): void;
  prev(): void;
  index(): number;
  slidesPerView(): number;
}

/** Pixels of movement before a pointer gesture counts as a swipe rather than a click. */
const DRAG_START_PX = 6;

const defaultStatus = (first: number, last: number, total: number) =>
  first === last ? `Slide ${first} of ${total}` : `Slides ${first} to ${last} of ${total}`;

/**
 * A transform-based slider for gallery, competence slider and lightbox. Layout is pure CSS
 * (custom properties `--slider-index`, `--slider-per-view`, `--slider-gap`, `--slider-speed`,
 * `--slider-drag`), so mounting reads no layout. Slides outside the view are inert: keyboard
 * and screen-reader users move with the buttons and hear the status.
 */
export function createSlider(options: SliderOptions): SliderController {
  const { env, undo, root, viewport, slides, prev, next, status, gapPx, speedMs, twoSlidesWhen, swipeRatio } = options;
  const statusText = options.statusText ?? defaultStatus;
  const win = env.window;
  let index = 0;
  let perView = twoSlidesWhen?.matches() ? 2 : 1;

  undo.addClass(root, 'is-enhanced');
  undo.setStyle(root, '--slider-gap', `${gapPx}px`);
  undo.setStyle(root, '--slider-per-view', String(perView));
  undo.setStyle(root, '--slider-index', '0');
  undo.setStyle(root, '--slider-speed', `${speedMs}ms`);
  const total = slides.length;
  slides.forEach((slide, position) => {
    // List items keep their list semantics ("item 2 of 8" comes from the list); other slides are labelled groups.
    if (slide.tagName !== 'LI') {
      undo.setAttribute(slide, 'role', 'group');
      undo.setAttribute(slide, 'aria-roledescription', 'slide');
      undo.setAttribute(slide, 'aria-label', `${position + 1} of ${total}`);
    }
    undo.defer(() => {
      slide.inert = false;
    });
  });

  const maxIndex = () => Math.max(0, total - perView);

  const render = () => {
    root.style.setProperty('--slider-index', String(index));
    root.style.setProperty('--slider-per-view', String(perView));
    root.style.setProperty('--slider-speed', env.reducedMotion() ? '0ms' : `${speedMs}ms`);
    root.dataset.perView = String(perView);
    slides.forEach((slide, position) => {
      slide.inert = position < index || position >= index + perView;
    });
    const focused = env.document.activeElement;
    if (prev) prev.disabled = index <= 0;
    if (next) next.disabled = index >= maxIndex();
    // A button that just became disabled would drop focus to the page: hand it to its partner.
    if (focused === prev && prev?.disabled && next && !next.disabled) next.focus();
    if (focused === next && next?.disabled && prev && !prev.disabled) prev.focus();
    if (status) status.textContent = statusText(index + 1, Math.min(index + perView, total), total);
  };
  undo.defer(() => {
    delete root.dataset.perView;
  });

  const controller: SliderController = {
    goTo(target) {
      const clamped = Math.min(Math.max(0, target), maxIndex());
      const changed = clamped !== index;
      index = clamped;
      render();
      if (changed) options.onChange?.(index);
    },
    next: () => controller.goTo(index + 1),
    prev: () => controller.goTo(index - 1),
    index: () => index,
    slidesPerView: () => perView,
  };

  if (prev) undo.listen(prev, 'click', () => controller.prev());
  if (next) undo.listen(next, 'click', () => controller.next());
  if (twoSlidesWhen) {
    undo.defer(
      twoSlidesWhen.subscribe((matches) => {
        perView = matches ? 2 : 1;
        controller.goTo(index);
      }),
    );
  }

  // Swipe: follow the pointer, then change slide if the gesture covered enough of a slide.
  let startX = 0;
  let startY = 0;
  let pointerId: number | null = null;
  let dragging = false;
  let suppressClick = false;
  const endDrag = (deltaX: number) => {
    root.classList.remove('is-dragging');
    root.style.setProperty('--slider-drag', '0px');
    const slideWidth = viewport.clientWidth / perView;
    if (deltaX <= -slideWidth * swipeRatio) controller.next();
    else if (deltaX >= slideWidth * swipeRatio) controller.prev();
  };
  undo.listen(viewport, 'pointerdown', (event) => {
    if (event.button !== 0 || total < 2) return;
    pointerId = event.pointerId;
    startX = event.clientX;
    startY = event.clientY;
    dragging = false;
  });
  undo.listen(viewport, 'pointermove', (event) => {
    if (event.pointerId !== pointerId) return;
    const deltaX = event.clientX - startX;
    if (!dragging) {
      if (Math.abs(deltaX) < DRAG_START_PX || Math.abs(deltaX) < Math.abs(event.clientY - startY)) return;
      dragging = true;
      root.classList.add('is-dragging');
      viewport.setPointerCapture?.(event.pointerId);
    }
    root.style.setProperty('--slider-drag', `${deltaX}px`);
  });
  const onPointerEnd = (event: PointerEvent) => {
    if (event.pointerId !== pointerId) return;
    pointerId = null;
    if (!dragging) return;
    dragging = false;
    suppressClick = true;
    win.setTimeout(() => (suppressClick = false), 0);
    endDrag(event.type === 'pointercancel' ? 0 : event.clientX - startX);
  };
  undo.listen(viewport, 'pointerup', onPointerEnd);
  undo.listen(viewport, 'pointercancel', onPointerEnd);
  // The click that ends a swipe must not open a link or the lightbox.
  undo.listen(
    viewport,
    'click',
    (event) => {
      if (!suppressClick) return;
      event.preventDefault();
      event.stopPropagation();
    },
    { capture: true },
  );
  undo.listen(viewport, 'dragstart', (event) => event.preventDefault());
  undo.listen(root, 'keydown', (event) => {
    const target = event.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable]')) return;
    if (event.key === 'ArrowLeft') controller.prev();
    else if (event.key === 'ArrowRight') controller.next();
    else return;
    event.preventDefault();
  });
  // Browsers scroll a clipped viewport to reveal focused content; the transform does that job.
  undo.listen(viewport, 'scroll', () => {
    viewport.scrollLeft = 0;
  });
  undo.defer(() => {
    root.classList.remove('is-dragging');
    root.style.removeProperty('--slider-drag');
    if (prev) prev.disabled = false;
    if (next) next.disabled = false;
    if (status) status.textContent = '';
  });

  render();
  return controller;
}
