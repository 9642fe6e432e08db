import {
  COMPETENCE_SLIDER_GAP_PX,
  COMPETENCE_SLIDER_SPEED_MS,
  COMPETENCE_SLIDER_SPLIT_RATIO,
  COMPETENCE_SLIDER_TWO_SLIDES_MIN_WIDTH_PX,
} from 'contracts';
import type { WidgetEnv } from '../../enhance/env.js';
import { requireChild, requireChildren } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { createSlider } from '../shared/slider.js';

/** Media query from which two competence slides show at once. */
export const TWO_SLIDES_QUERY = `(min-width: ${COMPETENCE_SLIDER_TWO_SLIDES_MIN_WIDTH_PX}px)`;

/**
 * Competence slider (`[data-widget="competence-slider"]`, same markup as the gallery's slider
 * without picture links): one slide, two from a viewport width of
 * COMPETENCE_SLIDER_TWO_SLIDES_MIN_WIDTH_PX; gap, speed and swipe split ratio from contracts.
 */
export function enhanceCompetenceSlider(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const viewport = requireChild(element, '[data-slider-viewport]', 'slider viewport');
    const track = requireChild(viewport, '[data-slider-track]', 'slider track');
    const slides = requireChildren(track, ':scope > [data-slider-slide]', 'slides');
    const controls = requireChild(element, '[data-slider-controls]', 'slider controls');
    const prev = requireChild<HTMLButtonElement>(controls, 'button[data-slider-prev]', 'previous button');
    const next = requireChild<HTMLButtonElement>(controls, 'button[data-slider-next]', 'next button');
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
      status: controls.querySelector<HTMLElement>('[data-slider-status]'),
      gapPx: COMPETENCE_SLIDER_GAP_PX,
      speedMs: COMPETENCE_SLIDER_SPEED_MS,
      swipeRatio: COMPETENCE_SLIDER_SPLIT_RATIO,
      twoSlidesWhen: env.media(TWO_SLIDES_QUERY),
    });
  });
}
