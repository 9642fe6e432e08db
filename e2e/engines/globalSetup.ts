import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import globalSetupOfTheSuite from '../harness/globalSetup.js';
import { startStack, type RemoteName } from '../harness/stack.js';
import { assertEnginesPresent } from './engines.js';

/** What the subset's tests get from the one stack (through `E2E_ENGINES_SITE`). */
export interface EnginesSite {
  url: string;
  remotes: Record<RemoteName, string>;
  /** POST `<control>/remotes/<name>/dead` or `/live`: that remote's origin serves nothing, or its build again. */
  control: string;
}

/**
 * One stack for the whole subset, every engine (started the way the suite's harness starts it),
 * and a small control endpoint through which a test makes a remote dead and live again (the
 * stack's handle lives in this process, the tests in workers).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  globalSetupOfTheSuite();
  assertEnginesPresent();
  // Patient server renders (as tests/slice-joins.spec.ts): past the shell's 1 s island budget a
  // page holds the island's placeholder, which a visitor without scripts keeps; on a loaded machine
  // the first render of a page (the no-scripts test's page 2) can take longer. What a page shows
  // must not depend on the machine's speed; the budget itself is tested in tests/streaming.spec.ts.
  const stack = await startStack({ env: { REMOTE_SERVER_TIMEOUT_MS: '10000', ISLAND_RENDER_BUDGET_MS: '20000' } });
  await rendersWithRemotes(stack.url);
  const empty = mkdtempSync(path.join(tmpdir(), 'khs-dead-remote-'));
  const control = createServer((request, response) => {
    const match = /^\/remotes\/([a-z-]+)\/(dead|live)$/.exec(request.url ?? '');
    const name = match?.[1] as RemoteName | undefined;
    if (request.method !== 'POST' || !name || !(name in stack.remotes)) {
      response.writeHead(404).end();
      return;
    }
    stack.serveRemote(name, match![2] === 'dead' ? empty : undefined);
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const address = control.address() as { port: number };
  const site: EnginesSite = { url: stack.url, remotes: stack.remotes, control: `http://127.0.0.1:${address.port}` };
  process.env.E2E_ENGINES_SITE = JSON.stringify(site);
  return async () => {
    control.close();
    await stack.close();
    rmSync(empty, { recursive: true, force: true });
  };
}

/**
 * Waits (bounded) until the shell renders pages with the remotes' server builds: right after a
 * start it warms them up in the background and answers with placeholders meanwhile, by design
 * (harness/fixtures.ts `serverRendered`).
 */
async function rendersWithRemotes(base: string, timeoutMs = 60_000): Promise<void> {
  const pages: Array<[string, string]> = [
    ['/search?q=work', 'khs-search-teaser'],
    ['/', 'role="combobox"'],
  ];
  const until = Date.now() + timeoutMs;
  for (const [pathname, marker] of pages) {
    for (;;) {
      const html = await fetch(new URL(pathname, base)).then((response) => response.text(), () => '');
      if (html.includes(marker)) break;
      if (Date.now() > until) throw new Error(`${pathname} was not rendered with ${marker} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
