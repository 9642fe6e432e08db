import { describe, expect, it } from 'vitest';
import { readShellConfig, ShellConfigError } from './config.js';

describe('readShellConfig', () => {
  it('has documented defaults for a fresh machine', () => {
    const config = readShellConfig({}, '/srv/site');
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4300,
      siteName: 'KHS Competence',
      dataDir: '/srv/site/.data',
      databaseUrl: undefined,
      remoteTimeoutMs: 8000,
    });
    expect(config.remotes.map((remote) => remote.name)).toEqual(['mf-search', 'mf-watchlist', 'mf-survey', 'mf-widgets']);
    expect(config.remotes[1]!.entry).toBe('http://127.0.0.1:4311/mf-manifest.json');
  });

  it('reads every variable', () => {
    const config = readShellConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      REMOTE_MF_SEARCH_URL: 'https://search.cdn.example/mf-manifest.json',
      DATABASE_URL: 'postgres://u@db/khs',
      COOKIE_SECRET: 'x'.repeat(40),
    });
    expect(config.port).toBe(0);
    expect(config.remotes[0]!.entry).toBe('https://search.cdn.example/mf-manifest.json');
    expect(config.databaseUrl).toBe('postgres://u@db/khs');
  });

  it('has links and proxies locked down by default, and reads their variables', () => {
    expect(readShellConfig({})).toMatchObject({ publicBaseUrl: undefined, allowedHosts: [], trustProxy: false });
    expect(
      readShellConfig({ PUBLIC_BASE_URL: 'https://khs.example/', ALLOWED_HOSTS: 'www.khs.example', TRUST_PROXY: '10.0.0.1,loopback' }),
    ).toMatchObject({ publicBaseUrl: 'https://khs.example', allowedHosts: ['www.khs.example'], trustProxy: ['10.0.0.1', 'loopback'] });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      readShellConfig({
        PORT: 'eighty',
        REMOTE_MF_WIDGETS_URL: 'not a url',
        COOKIE_SECRET: 'short',
        PUBLIC_BASE_URL: 'khs.example',
        ALLOWED_HOSTS: '*',
        TRUST_PROXY: 'true',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ShellConfigError);
    const problems = (error as ShellConfigError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('REMOTE_MF_WIDGETS_URL');
    expect(problems).toContain('COOKIE_SECRET');
    expect(problems).toContain('PUBLIC_BASE_URL');
    expect(problems).toContain('ALLOWED_HOSTS');
    expect(problems).toContain('TRUST_PROXY');
  });

  it("reads no slice's settings: the search server's variables are the search slice's (its browser settings module)", () => {
    const config = readShellConfig({ TYPESENSE_HOST: 'ts.internal', TYPESENSE_PROTOCOL: 'ftp', TYPESENSE_SEARCH_API_KEY: 'search-only-key-0123456789' });
    expect(JSON.stringify(config)).not.toContain('ts.internal');
    expect(JSON.stringify(config)).not.toContain('search-only-key-0123456789');
  });

  it('tells when the public development cookie secret is in use', () => {
    expect(readShellConfig({}).usesDevelopmentCookieSecret).toBe(true);
    expect(readShellConfig({ COOKIE_SECRET: 'y'.repeat(32) }).usesDevelopmentCookieSecret).toBe(false);
  });

  it.each(['0.0.0.0', '::', '10.0.0.5'])('refuses to listen on %s (not loopback) with the public development cookie secret', (host) => {
    expect(() => readShellConfig({ HOST: host })).toThrow(`COOKIE_SECRET must be set to listen on HOST=${host} (not loopback)`);
    expect(readShellConfig({ HOST: host, COOKIE_SECRET: 'y'.repeat(32) }).host).toBe(host);
    expect(readShellConfig({ HOST: '127.0.0.1' }).usesDevelopmentCookieSecret).toBe(true);
  });

  it("reads each team service's edge key from its registry variable (a development key per service when unset)", () => {
    const config = readShellConfig({ SURVEY_EDGE_KEY: 's'.repeat(43) });
    expect(config.edgeKeys.survey).toBe('s'.repeat(43));
    // One key per service: none is another's or the cookie secret.
    const keys = Object.values(config.edgeKeys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).not.toContain(config.cookieSecret);
    expect(() => readShellConfig({ WATCHLIST_EDGE_KEY: 'short' })).toThrow('WATCHLIST_EDGE_KEY must be at least 32 characters');
  });
});
