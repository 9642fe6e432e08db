import { describe, expect, it } from 'vitest';
import { developmentEdgeKey } from './edge.js';
import { readServiceSettings, ServiceSettingsError } from './serviceSettings.js';

const SURVEY = { name: 'survey', defaultPort: 4320, edgeKeyEnv: 'SURVEY_EDGE_KEY' };
const KEY = 'k'.repeat(43);

describe('readServiceSettings', () => {
  it("reads the service's own edge key from its variable, and never the shell's cookie secret", () => {
    const settings = readServiceSettings(SURVEY, { SURVEY_EDGE_KEY: KEY, COOKIE_SECRET: 'c'.repeat(40), WATCHLIST_EDGE_KEY: 'w'.repeat(43) });
    expect(settings.edgeKey).toBe(KEY);
    expect(settings.usesDevelopmentEdgeKey).toBe(false);
    expect(Object.values(settings)).not.toContain('c'.repeat(40));
    expect(Object.values(settings)).not.toContain('w'.repeat(43));
  });

  it("without its variable, uses the service's public development key on loopback", () => {
    const settings = readServiceSettings(SURVEY, { HOST: '127.0.0.1' });
    expect(settings.edgeKey).toBe(developmentEdgeKey('survey'));
    expect(settings.usesDevelopmentEdgeKey).toBe(true);
    expect(readServiceSettings(SURVEY, { HOST: '::1' }).usesDevelopmentEdgeKey).toBe(true);
    expect(readServiceSettings(SURVEY, { HOST: 'localhost' }).usesDevelopmentEdgeKey).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', 'example.org'])('refuses to listen on %s (not loopback) with the development or a missing key', (host) => {
    const attempt = () => readServiceSettings(SURVEY, { HOST: host });
    expect(attempt).toThrow(ServiceSettingsError);
    expect(attempt).toThrow(`SURVEY_EDGE_KEY must be set to listen on HOST=${host} (not loopback)`);
    expect(() => readServiceSettings(SURVEY, { HOST: host, SURVEY_EDGE_KEY: developmentEdgeKey('survey') })).toThrow('SURVEY_EDGE_KEY must be set');
    expect(readServiceSettings(SURVEY, { HOST: host, SURVEY_EDGE_KEY: KEY }).host).toBe(host);
  });

  it('reads PORT (its default when unset or blank) and refuses one that is not a port, naming it', () => {
    expect(readServiceSettings(SURVEY, {}).port).toBe(4320);
    expect(readServiceSettings(SURVEY, { PORT: ' ' }).port).toBe(4320);
    expect(readServiceSettings(SURVEY, { PORT: '0' }).port).toBe(0);
    for (const port of ['eighty', '65536', '-1', '1e3']) {
      expect(() => readServiceSettings(SURVEY, { PORT: port })).toThrow(`PORT must be an integer from 0 to 65535, got "${port}"`);
    }
  });

  it('refuses a short edge key', () => {
    expect(() => readServiceSettings(SURVEY, { SURVEY_EDGE_KEY: 'short' })).toThrow('SURVEY_EDGE_KEY must be at least 32 characters');
  });
});
