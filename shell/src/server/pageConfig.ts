import { DEFAULT_CALL_URLS, DEFAULT_SEARCH_SETTINGS, examplePageConfig, type PageConfig } from 'contracts';
import type { ShellConfig } from './config.js';

/** Where browsers reach the search server. */
export interface BrowserSearchEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** English texts of the site (the only locale so far). */
const I18N: PageConfig['i18n'] = examplePageConfig().i18n;

/** The config every page embeds for its islands. Built once per process: it has no secrets. */
export function buildPageConfig(config: ShellConfig, search: BrowserSearchEndpoint): PageConfig {
  return {
    siteName: config.siteName,
    remotes: config.remotes,
    remoteTimeoutMs: config.remoteTimeoutMs,
    search: {
      ...DEFAULT_SEARCH_SETTINGS,
      server: {
        apiKey: config.search.searchApiKey,
        host: search.host,
        port: search.port,
        protocol: search.protocol,
        indexName: config.search.indexName,
      },
    },
    calls: { ...DEFAULT_CALL_URLS },
    i18n: I18N,
  };
}
