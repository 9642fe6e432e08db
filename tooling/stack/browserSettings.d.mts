import type { SliceManifest } from './registry.d.ts';

/** What a slice's browser-settings module (`remote.browserSettings.module`) returns from `readBrowserSettings(env)`. */
export interface SliceBrowserSettings {
  /** Page config fields (those its manifest's `pageConfigFields` name), passed through unchanged. */
  pageConfig: Record<string, unknown>;
  /** Origins browsers reach for these settings (the CSP's `connect-src`). Default none. */
  connectOrigins?: string[];
  /** Lines the shell prints at start (how to configure what is missing). Default none. */
  notices?: string[];
  /** Malformed variables: the shell does not start. Default none. */
  problems?: string[];
}

/** Every slice's browser settings, collected. */
export interface BrowserSettings {
  pageConfig: Record<string, unknown>;
  connectOrigins: string[];
  notices: string[];
  problems: string[];
}

/** Runs every slice's declared browser-settings module with `env` and collects what they return. */
export function readBrowserSettings(env: Record<string, string | undefined>, options?: { slices?: readonly SliceManifest[]; root?: string }): Promise<BrowserSettings>;

/** The file of a slice's declared browser-settings module (`root`: the repository's by default), or undefined when it declares none. */
export function browserSettingsModule(slice: SliceManifest, root?: string): string | undefined;
