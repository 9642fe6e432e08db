import { describe, expect, it } from 'vitest';
import { startsSwipe, swipeStep } from './slider.js';

describe('swipeStep', () => {
  it('moves to the next slide for a leftward swipe of at least the ratio of a slide', () => {
    expect(swipeStep(-50, 200, 0.25)).toBe(1);
    expect(swipeStep(-120, 200, 0.25)).toBe(1);
  });

  it('moves to the previous slide for a rightward swipe as far', () => {
    expect(swipeStep(50, 200, 0.25)).toBe(-1);
  });

  it('stays for a shorter swipe either way, and for none', () => {
    expect(swipeStep(-49, 200, 0.25)).toBe(0);
    expect(swipeStep(49, 200, 0.25)).toBe(0);
    expect(swipeStep(0, 200, 0.25)).toBe(0);
  });

  it('measures against one slide: with two per view half the viewport is a slide', () => {
    expect(swipeStep(-30, 400 / 2, 0.2)).toBe(0);
    expect(swipeStep(-40, 400 / 2, 0.2)).toBe(1);
  });
});

describe('startsSwipe', () => {
  it('needs six pixels sideways', () => {
    expect(startsSwipe(5, 0)).toBe(false);
    expect(startsSwipe(-6, 0)).toBe(true);
  });

  it('leaves a mostly vertical gesture to the page scroll', () => {
    expect(startsSwipe(10, 11)).toBe(false);
    expect(startsSwipe(10, -10)).toBe(true);
  });
});
