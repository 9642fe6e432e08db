import { describe, expect, it } from 'vitest';
import { readShellConfig } from '../config.js';
import { browserSearchEndpoint, unconfiguredSearchNotice } from './searchEndpoint.js';

describe('the shell started alone: no search server of its own', () => {
  it('without TYPESENSE_HOST/TYPESENSE_NODES points browsers at 127.0.0.1:8108 and says how to point it at a server', () => {
    const config = readShellConfig({});
    expect(browserSearchEndpoint(config)).toEqual({ host: '127.0.0.1', port: 8108, protocol: 'http' });
    const notice = unconfiguredSearchNotice(config);
    expect(notice).toContain('no search server configured (TYPESENSE_HOST or TYPESENSE_NODES)');
    expect(notice).toContain('npm start -w @khs/search-engine');
    expect(notice).toContain('set TYPESENSE_HOST/TYPESENSE_PORT (TYPESENSE_NODES for a cluster)');
  });

  it('says nothing when a server or a cluster is configured, and points browsers at it', () => {
    const single = readShellConfig({ TYPESENSE_HOST: 'search.internal', TYPESENSE_PORT: '9108' });
    expect(unconfiguredSearchNotice(single)).toBeUndefined();
    expect(browserSearchEndpoint(single)).toEqual({ host: 'search.internal', port: 9108, protocol: 'http' });
    expect(unconfiguredSearchNotice(readShellConfig({ TYPESENSE_NODES: 'http://ts-1:8108,http://ts-2:8108' }))).toBeUndefined();
  });

  it('holds no admin key: TYPESENSE_API_KEY is not read into its config', () => {
    const adminKey = 'admin-key-the-shell-must-not-hold-0123456789';
    const config = readShellConfig({ TYPESENSE_HOST: '127.0.0.1', TYPESENSE_API_KEY: adminKey, TYPESENSE_SEARCH_API_KEY: 'search-only-key' });
    expect(JSON.stringify(config)).not.toContain(adminKey);
    expect(config.search.searchApiKey).toBe('search-only-key');
  });
});
