import { describe, expect, it } from 'vitest';
import { callRoutePattern, DEFAULT_CALL_URLS } from './config.js';

describe('callRoutePattern', () => {
  it('turns each {placeholder} of a call template into a :parameter and keeps the rest', () => {
    expect(callRoutePattern(DEFAULT_CALL_URLS.surveyResults)).toBe('/api/survey-results/:formHandle');
    expect(callRoutePattern(DEFAULT_CALL_URLS.surveySubmit)).toBe('/api/surveys/:formHandle/submissions');
    expect(callRoutePattern('/a/{x}/b/{y2}')).toBe('/a/:x/b/:y2');
    expect(callRoutePattern(DEFAULT_CALL_URLS.watchlist)).toBe('/api/watchlist');
  });
});
