import { GALLERY_SLIDE_GAP_PX, GALLERY_SLIDE_SPEED_MS } from 'contracts';
import type { SliderOptions } from '../shared/slider.js';
import { GALLERY_SWIPE_RATIO } from './swipe.js';

/** How the gallery and its lightbox slide: one definition, so the two always move alike. */
export const GALLERY_SLIDER_MOTION = {
  gapPx: GALLERY_SLIDE_GAP_PX,
  speedMs: GALLERY_SLIDE_SPEED_MS,
  swipeRatio: GALLERY_SWIPE_RATIO,
  statusText: (first: number, _last: number, total: number) => `Image ${first} of ${total}`,
} satisfies Partial<SliderOptions>;
