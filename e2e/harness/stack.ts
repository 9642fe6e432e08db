// The e2e suite starts the site exactly as `npm start` does: through the shared stack starter
// (tooling/stack), on free ports, with a temporary data folder.
import { readFileSync } from 'node:fs';
import { REMOTES, TEAM_SERVICES, teamService, type RemoteName, type TeamServiceName } from '@khs/stack/registry';
import { freePort, holdPort, REPO_ROOT, startStack as startSharedStack, type HeldPort, type Stack, type StackOptions as SharedStackOptions } from '@khs/stack';

export { freePort, holdPort, REPO_ROOT, type HeldPort, type RemoteName, type Stack };
export const REMOTE_NAMES: readonly RemoteName[] = REMOTES.map((remote) => remote.name);
export const SEARCH_API_KEY = 'khs-search-dev-key';
export const ADMIN_API_KEY = 'khs-admin-dev-key';

/**
 * What a hook or test that starts a stack of its own (and is not yet on `startStackInTest`,
 * fixtures.ts, which does not count the start at all) gives the start (ms), on top of its own work.
 * Set with `test.setTimeout(STACK_START_TIMEOUT_MS)` in the hook, or added to a test's own timeout.
 * A start took 90–200 s beside other suites at a load average of 30–60: a clock here is a bet on
 * the machine's load, which is why the worker's stack and `startStackInTest` have none.
 */
export const STACK_START_TIMEOUT_MS = 120_000;

export interface StackOptions extends Pick<SharedStackOptions, 'searchEnv' | 'deployedOrigins' | 'log' | 'shellPort'> {
  /** Kept for older tests: the search server always runs as its own supervised process. */
  separateSearchServer?: boolean;
  /** Extra environment for the shell. */
  env?: Record<string, string>;
}

/**
 * The head budget of the e2e shells (`PAGE_HEAD_BUDGET_MS`): a page goes out whole, with the cache
 * headers of a whole page, when its islands render within a second. With the 20 ms default,
 * whether a page streams (and so its `Cache-Control` and `ETag`, and whether nginx keeps it)
 * would depend on the machine's speed. `tests/streaming.spec.ts` streams by a slow island instead;
 * a benchmark of the shell as deployed passes `PAGE_HEAD_BUDGET_MS: ''` (the shell's default).
 */
export const E2E_PAGE_HEAD_BUDGET_MS = '1000';

/** The team service that fills the search index (registry `writesSearchIndex`). */
const INDEXER_SERVICE = TEAM_SERVICES.find((service) => service.writesSearchIndex)?.name;
/** First syncs that may fail in a row (the indexer retries each every 2 s) before the start gives up. */
const FIRST_SYNC_ATTEMPTS = 5;

/**
 * The whole site on free ports: each remote from its own origin, the search server, the shell;
 * resolved once the content is in the search index too. The indexing service reports ready after
 * its first sync or after 20 s, whichever comes first (so that `npm start` never waits on a large
 * import); on a busy machine the 20 s came first and a test searched an empty index. So the harness
 * waits for the sync's own line (`[search-indexer] synced …`), an event, whatever the time.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  let synced!: () => void;
  let failedToSync!: (error: Error) => void;
  const indexed = new Promise<void>((resolve, reject) => ((synced = resolve), (failedToSync = reject)));
  indexed.catch(() => {});
  let failures = 0;
  const watchIndexer = (line: string) => {
    const text = logText(line);
    if (text.startsWith('[search-indexer] synced ')) synced();
    else if (text.startsWith('[search-indexer] sync failed') && ++failures >= FIRST_SYNC_ATTEMPTS) failedToSync(new Error(`the content was not indexed: ${text}`));
    options.log?.(line);
  };
  const stack = await startSharedStack({
    env: { TYPESENSE_API_KEY: ADMIN_API_KEY, TYPESENSE_SEARCH_API_KEY: SEARCH_API_KEY, PAGE_HEAD_BUDGET_MS: E2E_PAGE_HEAD_BUDGET_MS, ...options.env },
    ...(options.searchEnv ? { searchEnv: options.searchEnv } : {}),
    ...(options.deployedOrigins ? { deployedOrigins: options.deployedOrigins } : {}),
    log: watchIndexer,
    ...(options.shellPort ? { shellPort: options.shellPort } : {}),
  });
  if (INDEXER_SERVICE && INDEXER_SERVICE in stack.pids()) {
    try {
      await indexed;
    } catch (error) {
      await stack.close();
      throw error;
    }
  }
  return stack;
}

/**
 * The edge key the stack gave a team service (its registry `edgeKeyEnv`): the one it generated into
 * its data folder's `secrets.json`, else the one this process's environment set. A direct call with it
 * comes to the service as the shell's proxy sends it.
 */
export function serviceEdgeKey(stack: Stack, name: TeamServiceName): string {
  const secrets = JSON.parse(readFileSync(stack.secretsFile, 'utf8')) as Record<string, string>;
  const variable = teamService(name).edgeKeyEnv;
  const key = secrets[variable] ?? process.env[variable]?.trim();
  if (!key) throw new Error(`no ${variable} in ${stack.secretsFile}`);
  return key;
}

/**
 * The text of a part's log line as a person reads it: a JSON log line's message, followed by its
 * error's stack on lines of their own when it carries one; any other line as it is. Every part
 * logs JSON lines (`@khs/observability`); specs match what the lines say.
 */
export function logText(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; err?: { stack?: unknown } };
    if (typeof entry.msg !== 'string') return line;
    return typeof entry.err?.stack === 'string' ? `${entry.msg}\n${entry.err.stack}` : entry.msg;
  } catch {
    return line;
  }
}
