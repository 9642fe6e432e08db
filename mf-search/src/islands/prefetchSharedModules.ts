/** The shared modules the full search list needs besides its own chunks (React). */
export const FULL_LIST_SHARED_MODULES = ['react', 'react-dom', 'react-dom/client'] as const;

interface ShareEntry {
  from?: string;
  loaded?: boolean;
  loading?: unknown;
}
interface ModuleInfo {
  shared?: Array<{ sharedName?: string; assets?: { js?: { sync?: string[] } } }>;
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

/** Asks the browser to fetch `files` at idle priority (`<link rel="prefetch">`: into the cache, nothing runs). */
export function prefetch(files: readonly string[], doc: Document = document): void {
  for (const href of files) {
    if (doc.head.querySelector(`link[rel="prefetch"][href="${CSS.escape(href)}"]`)) continue;
    const link = doc.createElement('link');
    link.rel = 'prefetch';
    link.href = href;
    doc.head.append(link);
  }
}
