import { createHash } from 'node:crypto';
import { fetchWithTimeout } from './fetchWithTimeout.js';
import { ServerIslandError } from './serverIslandError.js';

/** The parts of a remote's `mf-manifest.json` the server reads. */
export interface ManifestJson {
  metaData?: {
    publicPath?: string;
    buildInfo?: { buildVersion?: string };
    /** The deployed build's version (written by tooling/rspack-preset, used by tooling/deploy). */
    buildVersion?: string;
    /** When tooling/deploy switched the origin to this build (ISO date). */
    deployedAt?: string;
    /** The browser entry, beside the manifest unless `path` says otherwise (a deployed version's folder). */
    remoteEntry?: { path?: string; name?: string };
    ssrRemoteEntry?: { name?: string };
    /** The contracts version the remote was built against (written by tooling/rspack-preset). */
    contractsVersion?: string;
    /** Names of the modules the server build exposes (written by tooling/rspack-preset). */
    serverExposes?: string[];
  };
  /**
   * `requires`: the shared modules the expose needs as it loads (written by tooling/rspack-preset;
   * absent in builds before it).
   */
  exposes?: { name: string; assets?: ManifestAssets; requires?: string[] }[];
  /** The modules the build shares (React), with the files that provide them. */
  shared?: { name: string; assets?: ManifestAssets }[];
}

export interface ManifestAssets {
  css?: { sync?: string[]; async?: string[] };
  js?: { sync?: string[]; async?: string[] };
}

/** A fetched manifest: its URL (assets are relative to it) and a hash of its body. */
export interface ParsedManifest {
  /** sha-256 of the manifest body: a new build writes a new manifest. */
  hash: string;
  url: string;
  json: ManifestJson;
}

/** `metaData.buildVersion` of a manifest, else `buildInfo.buildVersion`. */
export function buildVersionOf(manifest: ParsedManifest | undefined): string | undefined {
  const metaData = manifest?.json.metaData;
  return metaData?.buildVersion ?? metaData?.buildInfo?.buildVersion;
}

/**
 * Fetches and parses `url` within `timeoutMs` (never from an HTTP cache). A failure becomes a
 * `ServerIslandError` of the `manifest` stage of `remote`.
 */
export async function fetchManifest(fetchImpl: typeof fetch, remote: string, url: string, timeoutMs: number): Promise<ParsedManifest> {
  try {
    const response = await fetchWithTimeout(fetchImpl, url, timeoutMs, { cache: 'no-store' });
    const body = await response.text();
    const json = JSON.parse(body) as ManifestJson;
    return { hash: createHash('sha256').update(body).digest('hex'), url, json };
  } catch (error) {
    throw new ServerIslandError(remote, 'manifest', `manifest of "${remote}": ${(error as Error)?.message ?? error}`, { cause: error });
  }
}

/** The modules a build's server side exposes (the browser build has more, e.g. its standalone page). */
export function serverExposesOf(manifest: ParsedManifest): string[] {
  const json = manifest.json;
  return json.metaData?.serverExposes ?? (json.exposes ?? []).map((expose) => expose.name);
}
