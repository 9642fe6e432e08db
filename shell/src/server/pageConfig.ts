import { DEFAULT_CALL_URLS, examplePageConfig, type PageConfig } from 'contracts';
import type { ShellConfig } from './config.js';

/**
 * What the slices' browser-settings modules returned at start (`readBrowserSettings` of
 * `@khs/stack/browser-settings`, declared in their manifests): page config fields the shell passes
 * through unchanged, and the origins browsers reach for them (the CSP's `connect-src`).
 */
export interface SliceBrowserSettings {
  pageConfig: Record<string, unknown>;
  connectOrigins: string[];
}

/** No slice's settings: every page config field keeps contracts' example value. */
export const NO_SLICE_BROWSER_SETTINGS: SliceBrowserSettings = { pageConfig: {}, connectOrigins: [] };

/** English texts of the site (the only locale so far). */
const I18N: PageConfig['i18n'] = examplePageConfig().i18n;

/**
 * The config every page embeds for its islands. Built once per process: it has no secrets. The
 * slices' fields (`slices.pageConfig`) go in unchanged over contracts' example values, which stay
 * for a field no slice fills (a required field of contracts' `PageConfig` until its planned major).
 */
export function buildPageConfig(config: ShellConfig, slices: SliceBrowserSettings = NO_SLICE_BROWSER_SETTINGS): PageConfig {
  return {
    ...examplePageConfig(),
    ...slices.pageConfig,
    siteName: config.siteName,
    remotes: config.remotes,
    remoteTimeoutMs: config.remoteTimeoutMs,
    calls: { ...DEFAULT_CALL_URLS },
    i18n: I18N,
  };
}
