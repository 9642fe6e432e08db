/** The shared modules the full search list needs besides its own chunks (React). */
export const FULL_LIST_SHARED_MODULES = ['react', 'react-dom', 'react-dom/client'] as const;

interface ShareEntry {
  from?: string;
  loaded?: boolean;
  loading?: unknown;
}
interface ModuleInfo {
  shared?: Array<{ sharedName?: string; assets?: { js?: { sync?: string[] } } }>;
  modules?: Array<{ moduleName?: string; assets?: { js?: { async?: string[] } } }>;
}
interface FederationGlobal {
  __INSTANCES__?: Array<{ shareScopeMap?: Record<string, Record<string, Record<string, ShareEntry>>> }>;
  moduleInfo?: Record<string, ModuleInfo>;
}

/** The higher of two versions (numeric parts first). */
function higher(a: string, b: string): string {
  const pa = a.split(/[.+-]/).map(Number);
  const pb = b.split(/[.+-]/).map(Number);
  for (let index = 0; index < Math.max(pa.length, pb.length); index += 1) {
    const difference = (pa[index] ?? 0) - (pb[index] ?? 0);
    if (difference !== 0 && !Number.isNaN(difference)) return difference > 0 ? a : b;
  }
  return a;
}

/**
 * Files of the copies of `names` the page's federation runtime will hand the full list, as the
 * runtime's global snapshot tells: the share scope says which remote provides each module (none
 * loaded yet: the highest version, first registered) and that remote's manifest snapshot lists
 * its files. Modules already loaded are left out. Empty when the snapshot does not say (a
 * best-effort hint: the import loads them either way).
 */
export function sharedModuleFiles(names: readonly string[], federation: FederationGlobal | undefined = (globalThis as { __FEDERATION__?: FederationGlobal }).__FEDERATION__): string[] {
  const files: string[] = [];
  try {
    const scope = federation?.__INSTANCES__?.map((instance) => instance.shareScopeMap?.default).find((candidate) => candidate !== undefined);
    for (const name of names) {
      const versions = scope?.[name];
      if (!versions || Object.values(versions).some((entry) => entry.loaded || entry.loading)) continue;
      const version = Object.keys(versions).reduce(higher);
      const provider = versions[version]?.from;
      if (!provider) continue;
      const key = Object.keys(federation?.moduleInfo ?? {}).find((candidate) => candidate.startsWith(`${provider}:`));
      const shared = key ? federation!.moduleInfo![key]!.shared?.find((entry) => entry.sharedName === name) : undefined;
      // The snapshot's key is `<container>:<manifest URL>`; files sit next to the manifest (publicPath auto).
      const base = key ? new URL('./', key.slice(provider.length + 1)) : undefined;
      for (const file of shared?.assets?.js?.sync ?? []) if (base) files.push(new URL(file, base).href);
    }
  } catch {
    return [];
  }
  return [...new Set(files)];
}

/**
 * Files of the chunks the expose named `expose` (`SearchList`) imports later (its manifest's async
 * files): the full island the binding loads on the first interaction, as the runtime's snapshot
 * of the manifest of the container that exposes it lists them. Other exposes' own entry files,
 * which the manifest lists with them, are left out. Empty when the snapshot does not say.
 */
export function exposeAsyncFiles(expose: string, federation: FederationGlobal | undefined = (globalThis as { __FEDERATION__?: FederationGlobal }).__FEDERATION__): string[] {
  try {
    for (const [key, info] of Object.entries(federation?.moduleInfo ?? {})) {
      const files = info.modules?.find((module) => module.moduleName === expose)?.assets?.js?.async;
      if (!files) continue;
      // The key is `<container>:<manifest URL>`; files sit next to the manifest (publicPath auto).
      const base = new URL('./', key.slice(key.indexOf(':') + 1));
      return files.filter((file) => !file.startsWith('__federation_expose_')).map((file) => new URL(file, base).href);
    }
  } catch {
    return [];
  }
  return [];
}

const prefetched = new Set<string>();

/**
 * Fetches `files` into the browser's cache at low priority; nothing runs. A `fetch` falls under
 * the CSP's `connect-src`, which names every remote origin: a `<link rel="prefetch">` has no
 * destination and falls under `default-src 'self'` in Firefox (blocked there, one CSP violation per
 * file). Made as the later `<script>` makes its request (`no-cors`, with credentials), so that
 * request finds this response in the cache in every engine (Firefox keys its cache on credentials).
 */
export function prefetch(files: readonly string[], fetchFile: typeof fetch = (input, init) => fetch(input, init)): void {
  for (const href of files) {
    if (prefetched.has(href)) continue;
    prefetched.add(href);
    fetchFile(href, { mode: 'no-cors', credentials: 'include', priority: 'low' } as RequestInit).then(
      // The body is read, so the whole file reaches the cache.
      (response) => response.arrayBuffer(),
      () => undefined,
    ).catch(() => undefined);
  }
}
