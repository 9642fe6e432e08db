// Issue 21 (processes, origins, secrets): one request must not take the site down, and every part
// comes back by itself. A static origin answers hostile Range headers and methods as RFC 9110 says
// and keeps running; each kind of process (origin, team service, search server, shell) killed with
// SIGKILL or hung with SIGSTOP is back on its port, with its data, while the page keeps answering;
// `npm start` killed outright leaves no process behind, starts again on the same ports, and a second
// start over taken ports says which and stops. Times: tooling/stack README, "Supervision".
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { getSurvey, listArticles } from '@khs/content';
import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import { DEVELOPMENT_COOKIE_SECRET, EDGE_KEY_HEADER, VISITOR_ID_HEADER, developmentEdgeKey, edgeKeyOf } from '@khs/team-service/edge';
import { REMOTES, SHELL_DEFAULT_PORT, TEAM_SERVICES } from '@khs/stack/registry';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { REPO_ROOT, SEARCH_API_KEY, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

const article = listArticles().find((candidate) => candidate.surveyHandle && getSurvey(candidate.surveyHandle))!;
const survey = getSurvey(article.surveyHandle!)!;
const [answer] = survey.answers as [(typeof survey.answers)[0]];
const surveyForm = (page: Page) => page.locator('.article__survey form.khs-survey');
/** How long a killed or hung part may take to be back (README: hung ≈ 3 × (1 s + 2 s) + its start). */
const BACK_WITHIN_MS = 40_000;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request exactly as written (fetch would add Accept-Encoding and refuse some methods). */
function raw(url: string, method = 'GET', headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * How long `pid`'s main thread has waited for a CPU since it started (`/proc/<pid>/schedstat`, ms);
 * undefined once it has exited. A zombie has exited: an orphan's is reaped by the machine's init,
 * which took 1.4 s here (a child of a killed npm start is such an orphan).
 */
function runQueueWaitMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat[stat.lastIndexOf(')') + 2];
    if (state === 'Z' || state === 'X') return undefined;
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/)[1]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * Waits until every one of `pids` has ended; resolves with, per pid, the time from the call to its
 * end in wall clock and less the time it waited for a CPU meanwhile (sampled every 50 ms while it
 * lived): what the process itself took to end, whatever the machine's load (run s6b: a child still
 * alive 8 s of wall clock after npm start's SIGKILL, at load 12–20).
 */
async function endings(pids: number[]): Promise<Array<{ pid: number; wallMs: number; ownMs: number }>> {
  const startedAt = performance.now();
  const firstWait = new Map(pids.map((pid) => [pid, runQueueWaitMs(pid) ?? 0]));
  const lastWait = new Map(firstWait);
  const ended = new Map<number, { pid: number; wallMs: number; ownMs: number }>();
  while (ended.size < pids.length) {
    for (const pid of pids.filter((each) => !ended.has(each))) {
      const waited = runQueueWaitMs(pid);
      if (waited !== undefined) lastWait.set(pid, waited);
      else {
        const wallMs = Math.round(performance.now() - startedAt);
        ended.set(pid, { pid, wallMs, ownMs: Math.round(wallMs - (lastWait.get(pid)! - firstWait.get(pid)!)) });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [...ended.values()];
}

/** The status of the page at `url`, its body read to the end (a page left half read keeps its connection busy). */
async function pageStatus(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

/** A search as the browser sends it, public search-only key; resolves with the number found. */
async function searchFound(stack: Stack, q = 'leadership'): Promise<number> {
  const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q, query_by: 'title,intro,content' }] }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { found: number }[] }).results[0]!.found;
}

/** The survey's results as the page reads them: `{ "<position>": percent }`. */
async function surveyResults(stack: Stack): Promise<Record<string, number>> {
  const response = await fetch(new URL(`/api/survey-results/${survey.formHandle}`, stack.url));
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, number>;
}

async function articleAnswers(stack: Stack): Promise<number> {
  const response = await fetch(new URL(article.url, stack.url));
  await response.arrayBuffer();
  return response.status;
}

test.describe.serial('every part comes back by itself', () => {
  let stack: Stack;
  let origins: string;

  test.beforeAll(async () => {
    test.setTimeout(STACK_START_TIMEOUT_MS);
    origins = mkdtempSync(path.join(os.tmpdir(), 'khs-supervision-origins-'));
    // Deploy targets as npm start serves them (with their deployments.json).
    stack = await startStack({ deployedOrigins: origins });
  });

  test.afterAll(async () => {
    await stack?.close();
    rmSync(origins, { recursive: true, force: true });
  });

  test('hostile Range headers and methods at a static origin: RFC answers, no process restarted, the site works', async ({ page }) => {
    test.setTimeout(90_000);
    const before = stack.pids();
    const origin = stack.remotes['mf-survey'];
    expect(existsSync(path.join(stack.originDirs['mf-survey'], 'deployments.json'))).toBe(true);

    // Point 1's requests, each of which stopped the whole site before.
    expect((await raw(`${origin}/deployments.json`, 'GET', { range: 'bytes=100-1' })).status).toBe(404);
    const manifest = JSON.parse((await raw(`${origin}/mf-manifest.json`)).body.toString()) as { metaData: { remoteEntry: { path: string; name: string } } };
    const chunk = `${origin}/${manifest.metaData.remoteEntry.path}${manifest.metaData.remoteEntry.name}`;
    const whole = await raw(chunk);
    expect(whole.status).toBe(200);
    const size = whole.body.length;
    for (const range of ['bytes=50-10', 'bytes=100-1', `bytes=${size}-`, 'bytes=-0']) {
      const refused = await raw(chunk, 'GET', { range });
      expect([range, refused.status, refused.headers['content-range']]).toEqual([range, 416, `bytes */${size}`]);
    }
    const huge = await raw(chunk, 'GET', { range: 'bytes=0-18446744073709551615' });
    expect([huge.status, huge.headers['content-range']]).toEqual([206, `bytes 0-${size - 1}/${size}`]);
    expect(huge.body.equals(whole.body)).toBe(true);
    const lastFive = await raw(chunk, 'GET', { range: 'bytes=-5' });
    expect([lastFive.status, lastFive.headers['content-range']]).toEqual([206, `bytes ${size - 5}-${size - 1}/${size}`]);
    expect(lastFive.body.equals(whole.body.subarray(size - 5))).toBe(true);

    // GET and HEAD only; nothing a browser or the shell does not load.
    for (const method of ['POST', 'PUT']) {
      const refused = await raw(chunk, method, { 'content-type': 'text/plain' }, 'x');
      expect([method, refused.status, refused.headers.allow]).toEqual([method, 405, 'GET, HEAD']);
      expect(refused.body.includes(whole.body.subarray(0, 32))).toBe(false);
    }
    expect((await raw(`${origin}/deployments.json`)).status).toBe(404);
    expect((await raw(`${origin}/mf-stats.json`)).status).toBe(404);
    expect((await raw(`${origin}/mf-manifest.json`, 'HEAD')).status).toBe(200);

    // The article page with its survey, a search and a vote still work, served by the same processes.
    await page.goto(new URL(article.url, stack.url).href);
    await islandsSettled(page);
    const form = surveyForm(page);
    await form.getByRole('radio', { name: answer.label, exact: true }).check();
    await form.getByRole('button', { name: 'Vote' }).click();
    await expect(form.getByRole('meter', { name: answer.label, exact: true })).toHaveAttribute('aria-valuenow', '100');
    await page.goto(new URL('/search?q=leadership', stack.url).href);
    await islandsSettled(page);
    await expect(page.locator('.khs-search-list .khs-search-teaser').first()).toBeVisible();
    expect(stack.pids()).toEqual(before);
  });

  test('a service takes no forged visitor: the development keys open nothing', async () => {
    const before = await surveyResults(stack);
    for (const forgedKey of [edgeKeyOf(DEVELOPMENT_COOKIE_SECRET), developmentEdgeKey('survey')]) {
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${stack.serviceUrl('survey')}/api/surveys/${survey.formHandle}/submissions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [EDGE_KEY_HEADER]: forgedKey, [VISITOR_ID_HEADER]: `forged-voter-${i}-0000000000` },
          body: JSON.stringify({ answerPosition: survey.answers.at(-1)!.position }),
        });
        expect(response.status).toBe(403);
      }
    }
    expect(await surveyResults(stack)).toEqual(before);
  });

  test('kill -9 of an origin, a team service, the search server and the shell: each is back on its port with its data', async () => {
    test.setTimeout(180_000);
    const votedBefore = await surveyResults(stack);
    expect(votedBefore[String(answer.position)]).toBe(100);
    const foundBefore = await searchFound(stack);
    expect(foundBefore).toBeGreaterThan(0);

    for (const part of ['mf-survey', 'survey', 'search', 'shell'] as const) {
      const killed = stack.pids()[part]!;
      const back = stack.nextStart(part);
      const killedAt = Date.now();
      process.kill(killed, 'SIGKILL');
      // Meanwhile the page answers (the shell itself aside), the affected island degrading as it does.
      if (part !== 'shell') expect(await articleAnswers(stack)).toBe(200);
      const pid = await Promise.race([back, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${part} not back`)), BACK_WITHIN_MS))]);
      console.log(`[supervision] ${part} killed (SIGKILL): listening again after ${Date.now() - killedAt} ms`);
      expect(pid).not.toBe(killed);
      expect(isAlive(killed)).toBe(false);
    }
    // On the same ports, with their data: the vote cast before, the search index, the origin's build.
    expect(await surveyResults(stack)).toEqual(votedBefore);
    expect(await searchFound(stack)).toBe(foundBefore);
    expect((await raw(`${stack.remotes['mf-survey']}/mf-manifest.json`)).status).toBe(200);
    expect(await articleAnswers(stack)).toBe(200);
  });

  test('SIGSTOP (hung) of an origin, a team service and the search server: each is replaced once its health check stops answering', async () => {
    test.setTimeout(240_000);
    const votedBefore = await surveyResults(stack);
    const foundBefore = await searchFound(stack);
    for (const part of ['mf-widgets', 'survey', 'search'] as const) {
      const hung = stack.pids()[part]!;
      const back = stack.nextStart(part);
      const stoppedAt = Date.now();
      process.kill(hung, 'SIGSTOP');
      try {
        // The shell keeps answering the page meanwhile (the hung part's island, if any, degrades).
        expect(await articleAnswers(stack)).toBe(200);
        const pid = await Promise.race([back, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${part} not replaced`)), BACK_WITHIN_MS))]);
        console.log(`[supervision] ${part} hung (SIGSTOP): replaced, listening after ${Date.now() - stoppedAt} ms`);
        expect(pid).not.toBe(hung);
        await expect.poll(() => isAlive(hung), { timeout: 10_000 }).toBe(false);
      } finally {
        if (isAlive(hung)) process.kill(hung, 'SIGCONT');
      }
    }
    expect(await surveyResults(stack)).toEqual(votedBefore);
    expect(await searchFound(stack)).toBe(foundBefore);
    expect((await raw(`${stack.remotes['mf-widgets']}/mf-manifest.json`)).status).toBe(200);
  });
});

/**
 * A free block of ports for a whole `npm start` (every registry default plus `offset`), below the
 * system's ephemeral range: the ports every other stack's parts get from port 0 (a suite beside this
 * one) come from that range, so none of them can take one of this block between the check and the bind.
 */
async function freePortOffset(): Promise<number> {
  const defaults = [SHELL_DEFAULT_PORT, 8108, ...REMOTES.map((remote) => remote.defaultPort), ...TEAM_SERVICES.map((service) => service.defaultPort)];
  const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  const highest = Math.max(...defaults);
  const span = ephemeralFrom - highest - 10_001;
  if (!(span > 0)) throw new Error(`no room for a block of ports below the ephemeral range (from ${ephemeralFrom})`);
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = 10_000 + Math.floor(Math.random() * span);
    if ((await Promise.all(defaults.map((port) => free(port + offset)))).every(Boolean)) return offset;
  }
  throw new Error('no free block of ports');
}

interface StartedSite {
  child: ChildProcessWithoutNullStreams;
  output: string[];
  /** Resolves with the first output line (stdout or stderr) that `pattern` matches. */
  line(pattern: RegExp): Promise<string>;
  /** The `listening` line: the shell's URL and every part's pid. */
  listening: Promise<{ url: string; pids: Record<string, number> }>;
  exited: Promise<number | null>;
}

/** `node scripts/start.mjs --no-build` as a person runs it, with its own data and deploy folders. */
function npmStart(dataDir: string, offset: number): StartedSite {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ORIGINS_DIR: path.join(dataDir, 'origins'), STACK_PORT_OFFSET: String(offset) },
  });
  const output: string[] = [];
  const watchers: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const keep = (line: string) => {
    output.push(line);
    for (const watcher of watchers.filter((each) => each.pattern.test(line))) {
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve(line);
    }
  };
  readline.createInterface({ input: child.stderr }).on('line', keep);
  const listening = new Promise<{ url: string; pids: Record<string, number> }>((resolve) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      keep(line);
      if (line.startsWith('{"event":"listening"')) resolve(JSON.parse(line));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const seen = output.find((each) => pattern.test(each));
      if (seen !== undefined) resolve(seen);
      else watchers.push({ pattern, resolve });
    });
  return { child, output, line, listening, exited };
}

test.describe('npm start itself', () => {
  test('a connection held open to the port of the shell during the start stops nothing (503 with Retry-After meanwhile); kill -9 leaves no process behind; the next start reuses the ports and the secrets; a start over taken ports or a used data folder says which and stops', async () => {
    test.setTimeout(180_000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-npm-start-'));
    const thirdDataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-npm-start-third-'));
    const offset = await freePortOffset();
    const started: StartedSite[] = [];
    try {
      const first = npmStart(dataDir, offset);
      started.push(first);
      // From the moment the search server is up (the shell is not yet), a client connects to the
      // shell's port and never sends anything nor lets go (a tab left open, a hanging health check).
      const shellPort = SHELL_DEFAULT_PORT + offset;
      await first.line(/\[stack\] search server \(pid \d+\) at/);
      const heldOpen = net.connect(shellPort, '127.0.0.1');
      heldOpen.on('error', () => undefined);
      // A request meanwhile: 503 with Retry-After (or the page, should this test read the line late).
      const early = await fetch(`http://127.0.0.1:${shellPort}/`);
      // Read to its end: a page left half read holds its connection busy, and the shell's stop waits for it.
      await early.arrayBuffer();
      const { url, pids } = await first.listening;
      expect(heldOpen.destroyed).toBe(false);
      heldOpen.destroy();
      if (early.status !== 200) expect({ status: early.status, retryAfter: early.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '1' });
      expect(url).toBe(`http://127.0.0.1:${shellPort}/`);
      expect(Object.keys(pids).sort()).toEqual(['contact', 'mf-search', 'mf-survey', 'mf-watchlist', 'mf-widgets', 'search', 'search-team', 'shell', 'survey', 'watchlist']);
      // Secrets: generated into the data folder, readable by its owner only; the log names the file.
      const secretsFile = path.join(dataDir, 'secrets.json');
      expect(first.output.some((line) => line.includes(`secrets in ${secretsFile}`) && line.includes('generated now: COOKIE_SECRET'))).toBe(true);
      expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
      const secrets = JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>;
      // A team service holds its own edge key and nothing else: not the cookie secret, not another's key.
      const surveyEnvironment = readFileSync(`/proc/${pids.survey}/environ`, 'utf8').split('\0');
      expect(surveyEnvironment).toContain(`SURVEY_EDGE_KEY=${secrets.SURVEY_EDGE_KEY}`);
      for (const [name, value] of Object.entries(secrets)) {
        if (name !== 'SURVEY_EDGE_KEY') expect(surveyEnvironment.some((entry) => entry.includes(value))).toBe(false);
      }
      expect(await pageStatus(url)).toBe(200);

      // The stack's own process killed outright: every child ends with it, within a few seconds.
      // Each ends within its 5 s (EXIT_WITH_PARENT) and a little, counted in its own time: on a busy
      // machine the wall clock adds the time it waited for a CPU.
      first.child.kill('SIGKILL');
      await first.exited;
      const ended = await endings(Object.values(pids));
      const nameOf = (pid: number) => Object.keys(pids).find((name) => pids[name] === pid);
      console.log(`[supervision] npm start killed (SIGKILL): its children gone after ${ended.map(({ pid, wallMs, ownMs }) => `${nameOf(pid)} ${wallMs} ms (${ownMs} ms less waits for a CPU)`).join(', ')}`);
      expect(ended.filter(({ ownMs }) => ownMs >= 8_000)).toEqual([]);

      // The next start: the same ports, the same secrets.
      const second = npmStart(dataDir, offset);
      started.push(second);
      const again = await second.listening;
      expect(again.url).toBe(url);
      expect(second.output.some((line) => line.includes('generated now'))).toBe(false);
      expect(JSON.parse(readFileSync(secretsFile, 'utf8'))).toEqual(secrets);
      expect(await pageStatus(again.url)).toBe(200);

      // A third over the running second: it names the taken ports and exits non-zero, starting nothing.
      const third = npmStart(thirdDataDir, offset);
      started.push(third);
      expect(await third.exited).not.toBe(0);
      const message = third.output.join('\n');
      expect(message).toContain(`${SHELL_DEFAULT_PORT + offset} (the shell)`);
      expect(message).toContain(`${4312 + offset} (the mf-survey origin)`);
      expect(message).toContain(`${4320 + offset} (the survey service)`);
      // A fourth on other ports over the second's data folder: refused too, naming the holder.
      const fourth = npmStart(dataDir, await freePortOffset());
      started.push(fourth);
      expect(await fourth.exited).not.toBe(0);
      expect(fourth.output.join('\n')).toContain(`The data folder ${dataDir} is in use by process ${second.child.pid}`);
      expect(Object.values(again.pids).every(isAlive)).toBe(true);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      await expect.poll(() => Object.values(again.pids).filter(isAlive), { timeout: 15_000 }).toEqual([]);
    } finally {
      for (const site of started) if (site.child.exitCode === null && site.child.signalCode === null) site.child.kill('SIGKILL');
      for (const dir of [dataDir, thirdDataDir]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
