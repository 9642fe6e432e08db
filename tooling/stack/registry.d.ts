// The two name unions repeat the manifests' names for the type checker (a JSON import has no literal
// types); scripts/stackRegistry.test.ts holds them to the manifests.
/** Every slice with a remote (`remote` in its `slice.json`). */
export type RemoteName = 'mf-search' | 'mf-watchlist' | 'mf-survey' | 'mf-widgets';

/** What the registry checks the slices' manifests with (tooling/stack/slice.schema.json, the fields in full). */
export interface SliceManifest {
  readonly name: string;
  readonly team: string;
  readonly description: string;
  readonly remote?: {
    readonly port: number;
    readonly manifestEnv: string;
    readonly islands: readonly string[];
    /** Its islands in the shell's slots (checked by the shell against contracts' slots at start). */
    readonly slots?: readonly { readonly slot: string; readonly island: string; readonly order: number; readonly props?: Readonly<Record<string, string>>; readonly hydrate?: 'immediate' | 'idle' | 'visible' | 'interaction'; readonly className?: string; readonly placeholder?: { readonly link: { readonly call: string; readonly text: string } } }[];
    /** Pages it owns: the shell serves each in the site's layout, a heading and one slot (checked by the shell at start). */
    readonly pages?: readonly SlicePageDeclaration[];
    /** Its islands' settings, read at start by a module of its own and passed through into every page's config (`browserSettings.mjs`). */
    readonly browserSettings?: { readonly module: string; readonly pageConfigFields: readonly string[] };
  };
  readonly service?: {
    readonly name: string;
    readonly entry: string;
    readonly port: number;
    readonly urlEnv: string;
    readonly edgeKeyEnv: string;
    readonly deprecatedEnv?: Readonly<Record<string, string>>;
    readonly reads: readonly ('searchAdminKey' | 'editorToken')[];
    readonly edgePolicy: { readonly description?: string; readonly routes: readonly unknown[]; readonly pages?: readonly unknown[]; readonly formPages?: readonly unknown[] };
  };
  /** The consent purposes its code needs (contracts' `ConsentState` fields), with the label the privacy settings show. */
  readonly consent?: readonly { readonly purpose: 'insights' | 'tracking'; readonly label: string }[];
  readonly env: readonly string[];
}

/** A page a slice declares (`remote.pages` in its `slice.json`; the schema says what each field means). */
export interface SlicePageDeclaration {
  readonly path: string;
  readonly title: string;
  readonly heading: string;
  readonly description?: string;
  readonly slot: string;
  readonly pageClass?: string;
  readonly queryParam?: string;
  readonly queryMaxLength?: number;
  readonly robots: 'index' | 'noindex' | 'noindex-with-query';
  readonly sharedCache?: boolean;
  readonly fallback?: { readonly text?: string; readonly onlyWithoutScripts?: boolean; readonly queryForm?: { readonly label: string; readonly formLabel: string } };
}

export interface RemoteEntry {
  /** Workspace folder and federation name. */
  readonly name: RemoteName;
  /** Environment variable holding the URL of its `mf-manifest.json`. */
  readonly manifestEnv: string;
  /** Port its static server uses by default (`npm start`, the shell's default manifest URL). */
  readonly defaultPort: number;
  /** The islands it exposes (its manifest's `remote.islands`). */
  readonly islands: readonly string[];
}

export interface ServiceEntry {
  readonly name: 'search';
  /** Environment variable with the host the shell reaches the service at. */
  readonly hostEnv: string;
  /** Environment variable with its port. */
  readonly portEnv: string;
  readonly defaultPort: number;
}

/** Every slice's service (`service.name` in its `slice.json`). */
export type TeamServiceName = 'survey' | 'watchlist' | 'search-team' | 'contact';

export interface TeamServiceEntry {
  readonly name: TeamServiceName;
  /** The slice folder (workspace) the service lives in. */
  readonly slice: RemoteName | 'contact';
  /** The file its `npm start` runs, relative to the slice folder. */
  readonly entry: string;
  /** Environment variable with its URL (comma-separated for several instances) in the shell's configuration. */
  readonly urlEnv: string;
  readonly defaultPort: number;
  /**
   * Environment variable with its edge key: the service reads it, the shell reads every service's
   * to send it along (`npm start` generates each, see the tooling/stack README, "Secrets").
   */
  readonly edgeKeyEnv: string;
  /** Its edge policy, as its manifest declares it (`readEdgePolicy`). */
  readonly edgePolicy: NonNullable<SliceManifest['service']>['edgePolicy'];
  /** Former variable names still read for one version: old name to new name (`withDeprecatedEnv`). */
  readonly deprecatedEnv: Readonly<Record<string, string>>;
  /** It writes the search index: the stack gives it the search server's address and admin key (no other part gets the key). Default false. */
  readonly writesSearchIndex: boolean;
  /** It serves an editors' page: the stack gives it `EDITOR_TOKEN` (no other part gets it). Default false. */
  readonly readsEditorToken: boolean;
}

/** Variables of the whole site, not of one slice: any part may read them. */
export const SITE_ENV: readonly string[];
/** Every slice's manifest, checked, sorted by folder name. */
export const SLICES: readonly SliceManifest[];
/** `env` with the deprecated variable names a manifest still accepts copied to their new names; one `warn` line per old name in use. */
export function withDeprecatedEnv<T extends Record<string, string | undefined>>(env: T, warn?: (line: string) => void): T & Record<string, string | undefined>;
/** Every federated remote, by port. */
export const REMOTES: readonly RemoteEntry[];
/** Every server-side service the shell reaches. */
export const SERVICES: readonly ServiceEntry[];
/** Every team's own service, reached through the shell's proxy. */
export const TEAM_SERVICES: readonly TeamServiceEntry[];
/** The shell's default port (`PORT`). */
export const SHELL_DEFAULT_PORT: number;
/** `${origin}/mf-manifest.json`; origin defaults to `http://127.0.0.1:<defaultPort>`. */
export function defaultManifestUrl(remote: RemoteEntry, origin?: string): string;
/** `http://127.0.0.1:<defaultPort>`. */
export function defaultServiceUrl(service: TeamServiceEntry): string;
/** The edge policy `service` declares (its manifest's `service.edgePolicy`; the shell validates it). */
export function readEdgePolicy(service: TeamServiceEntry): unknown;
/** The team service `name`; throws for a name the registry does not list. */
export function teamService(name: TeamServiceName): TeamServiceEntry;
/**
 * The origins whose pages query the search server from the browser (its `SEARCH_ALLOWED_ORIGINS`):
 * the shell on 127.0.0.1 and localhost when `shellPort` is known (> 0), `publicBaseUrl`'s origin and
 * each remote's origin. Unparsable entries are dropped.
 */
export function searchPageOrigins(options: { shellPort?: number | string; publicBaseUrl?: string; remoteOrigins?: readonly string[] }): string[];
