// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { COMPETENCE_SLIDER_GAP_PX, COMPETENCE_SLIDER_SPEED_MS } from 'contracts';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceCompetenceSlider, TWO_SLIDES_QUERY } from './enhanceCompetenceSlider.js';

const markup = `<section data-widget="competence-slider" aria-label="Competences">
  <div data-slider-viewport><ul data-slider-track>
    ${[1, 2, 3, 4, 5].map((n) => `<li data-slider-slide><a href="/c${n}">Card ${n}</a></li>`).join('')}
  </ul></div>
  <div data-slider-controls hidden><button type="button" data-slider-prev>Prev</button><p data-slider-status></p><button type="button" data-slider-next>Next</button></div>
</section>`;

describe('competence slider', () => {
  it('shows one slide below 960px and two from 960px, with its gap and speed', () => {
    const root = render(markup);
    const env = testEnv();
    enhanceCompetenceSlider(root, env);
    expect(TWO_SLIDES_QUERY).toBe('(min-width: 960px)');
    expect(root.style.getPropertyValue('--slider-gap')).toBe(`${COMPETENCE_SLIDER_GAP_PX}px`);
    expect(root.style.getPropertyValue('--slider-speed')).toBe(`${COMPETENCE_SLIDER_SPEED_MS}ms`);
    expect(root.dataset.perView).toBe('1');
    const slides = [...root.querySelectorAll<HTMLElement>('[data-slider-slide]')];
    expect(slides.filter((slide) => !slide.inert)).toHaveLength(1);
    env.queries.get(TWO_SLIDES_QUERY)!.set(true);
    expect(root.dataset.perView).toBe('2');
    expect(slides.filter((slide) => !slide.inert)).toHaveLength(2);
    expect(root.querySelector('[data-slider-status]')!.textContent).toBe('Slides 1 to 2 of 5');
  });

  it('clamps to the last full view when switching to two slides at the end', () => {
    const root = render(markup);
    const env = testEnv();
    enhanceCompetenceSlider(root, env);
    const next = root.querySelector<HTMLButtonElement>('[data-slider-next]')!;
    for (let i = 0; i < 4; i += 1) next.click();
    expect(root.style.getPropertyValue('--slider-index')).toBe('4');
    env.queries.get(TWO_SLIDES_QUERY)!.set(true);
    expect(root.style.getPropertyValue('--slider-index')).toBe('3');
    expect(next.disabled).toBe(true);
  });

  it('swipes only beyond the split ratio of a slide', () => {
    const root = render(markup);
    enhanceCompetenceSlider(root, testEnv());
    const viewport = root.querySelector<HTMLElement>('[data-slider-viewport]')!;
    Object.defineProperty(viewport, 'clientWidth', { value: 500, configurable: true });
    const swipe = (id: number, distance: number) => {
      viewport.dispatchEvent(new PointerEvent('pointerdown', { pointerId: id, clientX: 400, clientY: 0, button: 0 }));
      viewport.dispatchEvent(new PointerEvent('pointermove', { pointerId: id, clientX: 400 - distance, clientY: 0 }));
      viewport.dispatchEvent(new PointerEvent('pointerup', { pointerId: id, clientX: 400 - distance, clientY: 0 }));
    };
    swipe(1, 99); // 0.2 x 500 = 100 px needed
    expect(root.style.getPropertyValue('--slider-index')).toBe('0');
    swipe(2, 100);
    expect(root.style.getPropertyValue('--slider-index')).toBe('1');
  });
});
