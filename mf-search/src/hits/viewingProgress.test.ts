import { describe, expect, it } from 'vitest';
import { formatViewing, hitListProgress } from './viewingProgress.js';

describe('viewing progress', () => {
  it('substitutes count and total into the viewing label', () => {
    expect(formatViewing('Viewing {count} of {total} articles', 20, 62)).toBe('Viewing 20 of 62 articles');
  });

  it('gives the share loaded, capped, and 0 for no hits', () => {
    expect(hitListProgress(20, 80)).toEqual({ loaded: 20, total: 80, share: 0.25 });
    expect(hitListProgress(90, 80).share).toBe(1);
    expect(hitListProgress(0, 0).share).toBe(0);
  });
});
