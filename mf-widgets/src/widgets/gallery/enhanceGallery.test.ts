// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIALOG_CLOSE_DELAY_MS, GALLERY_SLIDE_GAP_PX, GALLERY_SLIDE_SPEED_MS, LIGHTBOX_PADDING_BOTTOM_PX, LIGHTBOX_PADDING_TOP_PX } from 'contracts';
import { MarkupError } from '../../enhance/markup.js';
import { press, render, testEnv } from '../../testing/testEnv.js';
import { enhanceGallery } from './enhanceGallery.js';

const pictures = ['one', 'two', 'three'];
const markup = `<section data-widget="gallery" aria-label="Gallery">
  <div data-slider-viewport><ul data-slider-track>
    ${pictures
      .map((name) => `<li data-slider-slide><figure><a href="/${name}.svg" data-lightbox-item><img src="/${name}.svg" alt="Alt ${name}"></a><figcaption>Caption ${name}</figcaption></figure></li>`)
      .join('')}
  </ul></div>
  <div data-slider-controls hidden><button type="button" data-slider-prev>Prev</button><p data-slider-status></p><button type="button" data-slider-next>Next</button></div>
</section>`;

const lightbox = () => document.querySelector<HTMLElement>('.khs-widgets-lightbox');
const lightboxStatus = () => lightbox()!.querySelector('.khs-widgets-lightbox__status')!.textContent;

describe('gallery', () => {
  afterEach(() => vi.useRealTimers());

  it('becomes a slider with the gallery speed and gap; buttons are disabled at the ends', () => {
    const root = render(markup);
    enhanceGallery(root, testEnv());
    const [prev, next] = [...root.querySelectorAll<HTMLButtonElement>('[data-slider-controls] button')];
    expect(root.querySelector<HTMLElement>('[data-slider-controls]')!.hidden).toBe(false);
    expect(root.style.getPropertyValue('--slider-gap')).toBe(`${GALLERY_SLIDE_GAP_PX}px`);
    expect(root.style.getPropertyValue('--slider-speed')).toBe(`${GALLERY_SLIDE_SPEED_MS}ms`);
    expect(prev!.disabled).toBe(true);
    expect(root.querySelector('[data-slider-status]')!.textContent).toBe('Image 1 of 3');
    next!.click();
    next!.click();
    expect(root.style.getPropertyValue('--slider-index')).toBe('2');
    expect(next!.disabled).toBe(true);
    expect(prev!.disabled).toBe(false);
    const slides = [...root.querySelectorAll<HTMLElement>('[data-slider-slide]')];
    expect(slides.map((slide) => slide.inert)).toEqual([true, true, false]);
  });

  it('moves with the arrow keys and with a swipe', () => {
    const root = render(markup);
    enhanceGallery(root, testEnv());
    const viewport = root.querySelector<HTMLElement>('[data-slider-viewport]')!;
    Object.defineProperty(viewport, 'clientWidth', { value: 600, configurable: true });
    press(root.querySelector('[data-slider-next]')!, 'ArrowRight');
    expect(root.style.getPropertyValue('--slider-index')).toBe('1');
    viewport.dispatchEvent(new PointerEvent('pointerdown', { pointerId: 1, clientX: 500, clientY: 10, button: 0 }));
    viewport.dispatchEvent(new PointerEvent('pointermove', { pointerId: 1, clientX: 300, clientY: 12 }));
    viewport.dispatchEvent(new PointerEvent('pointerup', { pointerId: 1, clientX: 300, clientY: 12 }));
    expect(root.style.getPropertyValue('--slider-index')).toBe('2');
    // A short gesture is not a swipe.
    viewport.dispatchEvent(new PointerEvent('pointerdown', { pointerId: 2, clientX: 300, clientY: 10, button: 0 }));
    viewport.dispatchEvent(new PointerEvent('pointermove', { pointerId: 2, clientX: 340, clientY: 10 }));
    viewport.dispatchEvent(new PointerEvent('pointerup', { pointerId: 2, clientX: 340, clientY: 10 }));
    expect(root.style.getPropertyValue('--slider-index')).toBe('2');
  });

  it('opens the lightbox at the clicked picture with caption, keys and padding; Escape returns focus', () => {
    vi.useFakeTimers();
    const root = render(markup);
    enhanceGallery(root, testEnv());
    const second = root.querySelectorAll<HTMLAnchorElement>('[data-lightbox-item]')[1]!;
    second.focus();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    second.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    const box = lightbox()!;
    expect(box.hidden).toBe(false);
    expect(box.getAttribute('role')).toBe('dialog');
    expect(box.style.getPropertyValue('--lightbox-padding-top')).toBe(`${LIGHTBOX_PADDING_TOP_PX}px`);
    expect(box.style.getPropertyValue('--lightbox-padding-bottom')).toBe(`${LIGHTBOX_PADDING_BOTTOM_PX}px`);
    expect(lightboxStatus()).toBe('Image 2 of 3');
    const visible = [...box.querySelectorAll<HTMLElement>('.khs-widgets-lightbox__slide')].find((slide) => !slide.inert)!;
    expect(visible.querySelector('img')!.getAttribute('alt')).toBe('Alt two');
    expect(visible.querySelector('figcaption')!.textContent).toBe('Caption two');
    expect(box.contains(document.activeElement)).toBe(true);
    press(document.activeElement!, 'ArrowRight');
    expect(lightboxStatus()).toBe('Image 3 of 3');
    press(document.activeElement!, 'Home');
    expect(lightboxStatus()).toBe('Image 1 of 3');
    press(document.activeElement!, 'Escape');
    vi.advanceTimersByTime(DIALOG_CLOSE_DELAY_MS);
    expect(box.hidden).toBe(true);
    expect(document.activeElement).toBe(second);
  });

  it('cleanup removes the lightbox and the slider state', () => {
    const root = render(markup);
    const cleanup = enhanceGallery(root, testEnv());
    root.querySelector<HTMLAnchorElement>('[data-lightbox-item]')!.click();
    cleanup();
    expect(lightbox()).toBeNull();
    expect(root.classList.contains('is-enhanced')).toBe(false);
    expect(root.querySelector<HTMLElement>('[data-slider-controls]')!.hidden).toBe(true);
    expect(document.documentElement.style.overflow).toBe('');
  });

  it('rejects a slide without a picture link', () => {
    const root = render(markup.replace('data-lightbox-item', ''));
    expect(() => enhanceGallery(root, testEnv())).toThrow(MarkupError);
  });
});
