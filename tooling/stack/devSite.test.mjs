import { describe, expect, it } from 'vitest';
import { remotesFromEnvironment } from './devSite.mjs';

describe('remotesFromEnvironment', () => {
  it('takes the other remotes a team points elsewhere by their registry variable, never the one in watch mode', () => {
    const env = {
      REMOTE_MF_WATCHLIST_URL: ' https://staging.example/mf-watchlist/mf-manifest.json ',
      REMOTE_MF_SURVEY_URL: 'https://staging.example/mf-survey/mf-manifest.json',
      REMOTE_MF_WIDGETS_URL: '   ',
      KHS_REMOTE_MF_SEARCH_URL: 'https://not-our-variable.example/',
    };
    expect(remotesFromEnvironment('mf-survey', env)).toEqual({ 'mf-watchlist': 'https://staging.example/mf-watchlist/mf-manifest.json' });
    expect(remotesFromEnvironment('mf-search', {})).toEqual({});
  });
});
