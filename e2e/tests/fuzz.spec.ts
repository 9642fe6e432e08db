import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listArticles, listSurveys } from '@khs/content';
import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import { expect, test } from '@playwright/test';
import { buildCorpus } from '../fuzz/corpus.js';
import { startOriginProcess, type OriginProcess } from '../fuzz/originProcess.js';
import { listRoutes, type FuzzPart } from '../fuzz/routes.js';
import { outcomeLabel, runCorpus, summarize, type CaseResult } from '../fuzz/runCorpus.js';
import { ADMIN_API_KEY, REPO_ROOT, REMOTE_NAMES, SEARCH_API_KEY, serviceEdgeKey, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

// Issue 21, "No request takes the site down": every route of every part of the stack (the shell,
// the team services, the search server, the remotes' static origins) gets malformed and hostile
// requests as raw bytes (fuzz/corpus.ts). None may be answered with a 5xx or left without an
// answer, and every process must still be up at the end. The origins are fuzzed as processes of
// their own over the folders the stack serves (fuzz/originProcess.ts): one that crashes is reported
// against the request that did it and started again.

/** The corpus's seed: a failure reproduces with the same cases. */
const SEED = 21;
/** No complete answer in this time is a hang. */
const HANG_MS = 10_000;
const CONCURRENCY = 12;
const OPERATOR_TOKEN = 'fuzz-operator-token';
/** The search server's body deadline in this run (10 s by default): well under HANG_MS, so an unfinished body is answered in time. */
const SEARCH_BODY_TIMEOUT_MS = 2000;
/** Codings the corpus sends that mean no coding at all (`identity`, an empty list): the body as it is. */
const NO_CODING_VARIANTS = new Set(['identity', 'empty coding list']);

function parseCookie(setCookie: string | null): string {
  const match = /(?:^|,\s*)(_csrf=[^;]+)/.exec(setCookie ?? '');
  if (!match) throw new Error(`no _csrf cookie in ${setCookie}`);
  return match[1]!;
}

/** Some files of each origin: manifest, stats (not served), entry, a chunk, a stylesheet, the standalone page, the server entry. */
function originFiles(dir: string): string[] {
  const top = readdirSync(dir);
  const pick = (pattern: RegExp) => top.filter((file) => pattern.test(file)).sort()[0];
  return [
    '/mf-manifest.json',
    '/mf-stats.json',
    pick(/^remoteEntry\.[0-9a-f]{8}\.js$/),
    pick(/^__federation_expose_.*\.js$/),
    pick(/\.css$/),
    '/standalone/index.html',
    '/server/remoteEntry.js',
  ]
    .filter((file): file is string => Boolean(file))
    .map((file) => (file.startsWith('/') ? file : `/${file}`));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.describe('fuzz corpus against the whole stack', () => {
  let stack: Stack;
  const origins = new Map<string, OriginProcess>();
  test.beforeAll(async () => {
    test.setTimeout(STACK_START_TIMEOUT_MS);
    stack = await startStack({ env: { OPERATOR_TOKEN }, searchEnv: { SEARCH_BODY_TIMEOUT_MS: String(SEARCH_BODY_TIMEOUT_MS) } });
    for (const name of REMOTE_NAMES) origins.set(name, await startOriginProcess(stack.originDirs[name]));
  });
  test.afterAll(async () => {
    await Promise.all([...origins.values()].map((origin) => origin.stop()));
    await stack?.close();
  });

  test('no hostile request gets a 5xx or no answer, and every process is still up', async ({}, testInfo) => {
    test.setTimeout(240_000);
    const services = ['survey', 'watchlist', 'search-team', 'contact'] as const;
    const pidsBefore = { search: stack.searchPid(), ...Object.fromEntries(services.map((name) => [name, stack.servicePid(name)])) };

    const tokenResponse = await fetch(new URL('/actions/blitz/csrf/token', stack.url));
    const csrf = { token: await tokenResponse.text(), cookie: parseCookie(tokenResponse.headers.get('set-cookie')) };
    const originProcess = (part: FuzzPart) => origins.get(part.slice('origin:'.length))!;
    const origin = (part: FuzzPart): URL => {
      if (part === 'shell') return new URL(stack.url);
      if (part === 'search') return new URL(stack.searchUrl);
      if (part.startsWith('origin:')) return new URL(`http://${originProcess(part).host}:${originProcess(part).port}`);
      return new URL(stack.serviceUrl(part as (typeof services)[number]));
    };
    // Each team service believes only its own edge key (the stack generated them into its secrets.json).
    const edgeKeys = Object.fromEntries(services.map((name) => [name, serviceEdgeKey(stack, name)])) as Record<(typeof services)[number], string>;
    const clientDir = path.join(REPO_ROOT, 'shell/dist/client');
    const shellChunk = readdirSync(clientDir).find((file) => /^\d+\.[0-9a-f]{8}\.js$/.test(file));
    const routes = listRoutes({
      articleId: listArticles()[0]!.id,
      surveyHandle: listSurveys()[0]!.formHandle,
      operatorToken: OPERATOR_TOKEN,
      edgeKeyOf: (service) => edgeKeys[service],
      searchKey: SEARCH_API_KEY,
      adminKey: ADMIN_API_KEY,
      shellAssets: ['/assets/shell-runtime.js', ...(shellChunk ? [`/assets/${shellChunk}`] : []), '/static/site.css'],
      contentImage: '/content-images/default.svg',
      // The shell's rule (seo/imageCatalogue.ts): the first 12 hex digits of the file's SHA-256.
      hashedImage: `/images/default.${createHash('sha256').update(readFileSync(path.join(REPO_ROOT, 'content/images/default.svg'))).digest('hex').slice(0, 12)}.svg`,
      contentMedia: '/content-media/site-intro.webm',
      originFiles: Object.fromEntries(REMOTE_NAMES.map((name) => [name, originFiles(stack.originDirs[name])])),
    });
    const cases = buildCorpus(routes, {
      hostOf: (part) => origin(part).host,
      csrf,
      // The other parts must ignore edge headers whatever they hold: they get a real key too.
      edgeKeyOf: (part) => edgeKeys[part as (typeof services)[number]] ?? edgeKeys.survey,
      seed: SEED,
      unfinishedBodyParts: ['search'],
    });

    const run = await runCorpus(cases, {
      addressOf: (part) => ({ host: origin(part).hostname, port: Number(origin(part).port) }),
      concurrency: CONCURRENCY,
      timeoutMs: HANG_MS,
      watched: {
        parts: REMOTE_NAMES.map((name): FuzzPart => `origin:${name}`),
        async crashed(part) {
          const process = originProcess(part);
          // An exit follows the dropped connection closely.
          for (let waited = 0; process.alive() && waited < 300; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
          if (process.alive()) return undefined;
          const why = process.lastError().trim().split('\n').find((line) => /Error/.test(line)) ?? 'exited';
          await process.restart();
          return why;
        },
      },
    });
    console.log(`${summarize(run)}\nroutes: ${routes.length}, cases: ${cases.length}, seed ${SEED}, hang after ${HANG_MS / 1000} s`);
    // Every case's outcome, to compare runs or find a case by its name.
    const outcomesFile = testInfo.outputPath('fuzz-outcomes.json');
    writeFileSync(outcomesFile, JSON.stringify(run.results.map(({ fuzzCase, outcome }) => ({ case: fuzzCase.name, ...outcome })), null, 1));
    console.log(`every case's outcome: ${outcomesFile}`);

    const describe = ({ fuzzCase, outcome }: CaseResult) => `${outcomeLabel(outcome)} (${outcome.ms} ms)  ${fuzzCase.name}${outcome.kind === 'crash' ? `  [${outcome.error}]` : ''}`;
    // Every process is still the one that started (a crash would show as an exit or a restart).
    const exited = await Promise.race([stack.shellExit.then((code) => `the shell exited with ${code}`), new Promise<undefined>((resolve) => setTimeout(resolve, 50))]);
    const pidsAfter = { search: stack.searchPid(), ...Object.fromEntries(services.map((name) => [name, stack.servicePid(name)])) };
    const dead = Object.entries(pidsAfter)
      .filter(([name, pid]) => pid !== pidsBefore[name as keyof typeof pidsBefore] || !isRunning(pid))
      .map(([name]) => `the ${name} process crashed or was restarted`)
      .concat([...origins].filter(([, origin]) => !origin.alive()).map(([name]) => `the ${name} origin process died`));
    // ...and still answers.
    const health = [
      ['shell', new URL('/', stack.url)],
      ['search', new URL('/health', stack.searchUrl)],
      ...services.map((name) => [name, new URL('/health', stack.serviceUrl(name))] as const),
      ...REMOTE_NAMES.map((name) => [`origin:${name}`, new URL('/mf-manifest.json', stack.remotes[name])] as const),
    ] as const;
    const statuses = await Promise.all(health.map(async ([name, url]) => `${name} ${await fetch(url).then((response) => response.status, (error: Error) => error.message)}`));

    // The corpus reads the site's index with the admin key but never changes it.
    const index = await fetch(new URL(`/collections/${DEFAULT_SEARCH_INDEX_NAME}`, stack.searchUrl), { headers: { 'x-typesense-api-key': ADMIN_API_KEY } });
    const indexed = ((await index.json()) as { num_documents?: number }).num_documents;

    // The well-behaved request of each route got what it should: the corpus reaches every handler
    // (keys, CSRF token and edge headers right), so the hostile variants test the handlers too.
    const baselines = routes.map((route) => {
      const result = run.results.find(({ fuzzCase }) => fuzzCase.route === route && fuzzCase.family === 'baseline')!;
      const expectedStatuses = route.baseline ?? [200];
      return `${route.part} ${route.method} ${route.path}: ${result.outcome.kind === 'response' && expectedStatuses.includes(result.outcome.status) ? 'as expected' : outcomeLabel(result.outcome)}`;
    });

    // Issue 34: what the first corpus runs let through. Any Content-Encoding is refused (415) by the
    // search server as by the shell; an unfinished body gets the search server's 408 (or the
    // refusal the route gives before it reads a body); a request without Host gets the shell's 400.
    const statusOf = ({ outcome }: CaseResult) => (outcome.kind === 'response' ? outcome.status : outcomeLabel(outcome));
    const unexpected = (cases: CaseResult[], allowed: (result: CaseResult) => Array<number | string>) =>
      cases.filter((result) => !allowed(result).includes(statusOf(result))).map(describe);
    const ofFamily = (parts: FuzzPart[], family: string) => run.results.filter(({ fuzzCase }) => parts.includes(fuzzCase.part) && fuzzCase.family === family);
    const codedBodies = ofFamily(['shell', 'search'], 'content encoding').filter(({ fuzzCase }) => !NO_CODING_VARIANTS.has(fuzzCase.name.split(': ').at(-1)!));
    expect(codedBodies.filter(({ fuzzCase }) => fuzzCase.part === 'search').length, 'coded bodies sent to the search server').toBeGreaterThan(0);
    expect(unexpected(codedBodies, () => [415]), 'coded bodies not answered 415').toEqual([]);
    const unfinished = ofFamily(['search'], 'unfinished body');
    expect(unfinished.length, 'unfinished bodies sent to the search server').toBeGreaterThan(0);
    // A route that refuses before it reads the body (an import into an absent collection: its baseline 404) answers that.
    expect(unexpected(unfinished, ({ fuzzCase }) => [408, ...(fuzzCase.route?.baseline?.includes(404) ? [404] : [])]), 'unfinished bodies not answered 408').toEqual([]);
    const withoutHost = run.results.filter(({ fuzzCase }) => fuzzCase.part === 'shell' && fuzzCase.family === 'protocol' && /without Host/.test(fuzzCase.name));
    expect(withoutHost.length).toBeGreaterThan(0);
    expect(unexpected(withoutHost, () => [400]), 'shell requests without Host not answered 400').toEqual([]);

    expect(run.failures.map(describe), 'requests answered with a 5xx or not at all').toEqual([]);
    expect(baselines.filter((line) => !line.endsWith('as expected')), 'well-behaved requests that did not get their usual answer').toEqual([]);
    expect([exited, ...dead].filter(Boolean), 'processes that crashed').toEqual([]);
    expect(statuses).toEqual(health.map(([name]) => `${name} 200`));
    expect(indexed, 'articles in the search index after the fuzz').toBe(listArticles().length);
  });
});
