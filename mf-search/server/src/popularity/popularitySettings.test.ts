import { describe, expect, it } from 'vitest';
import { DEFAULT_POPULARITY_SETTINGS, PopularitySettingsError, readPopularitySettings } from './popularitySettings.js';

describe('readPopularitySettings', () => {
  it('is off by default, with the documented defaults', () => {
    expect(readPopularitySettings({})).toEqual(DEFAULT_POPULARITY_SETTINGS);
    expect(DEFAULT_POPULARITY_SETTINGS.enabled).toBe(false);
  });

  it('reads the switch, the weights in one setting, the half-life, the window, the minimum and the refresh', () => {
    expect(
      readPopularitySettings({
        SEARCH_POPULARITY: 'on',
        SEARCH_POPULARITY_WEIGHTS: 'conversion:8, click:0.5',
        SEARCH_POPULARITY_HALF_LIFE_DAYS: '3',
        SEARCH_POPULARITY_VISITOR_WINDOW_HOURS: '12',
        SEARCH_POPULARITY_MIN_VISITORS: '5',
        SEARCH_POPULARITY_REFRESH_SECONDS: '30',
      }),
    ).toEqual({ enabled: true, weights: { click: 0.5, conversion: 8 }, halfLifeMs: 3 * 86_400_000, visitorWindowMs: 12 * 3_600_000, minVisitors: 5, refreshMs: 30_000 });
  });

  it.each([
    [{ SEARCH_POPULARITY: 'yes' }, /SEARCH_POPULARITY must be on or off/],
    [{ SEARCH_POPULARITY_WEIGHTS: 'click:1' }, /both click and conversion/],
    [{ SEARCH_POPULARITY_WEIGHTS: 'click:1,view:2' }, /SEARCH_POPULARITY_WEIGHTS must be/],
    [{ SEARCH_POPULARITY_WEIGHTS: 'click:-1,conversion:2' }, /SEARCH_POPULARITY_WEIGHTS must be/],
    [{ SEARCH_POPULARITY_HALF_LIFE_DAYS: '0' }, /SEARCH_POPULARITY_HALF_LIFE_DAYS must be a positive number/],
    [{ SEARCH_POPULARITY_MIN_VISITORS: '2.5' }, /SEARCH_POPULARITY_MIN_VISITORS must be a positive whole number/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => readPopularitySettings(env)).toThrow(PopularitySettingsError);
    expect(() => readPopularitySettings(env)).toThrow(message);
  });
});
