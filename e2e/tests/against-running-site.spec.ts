// Issue 22, point 2: the cross-remote suite as a team's gate before going live — its running-site
// subset (`npm run test:against -w e2e`) run as a child process against a site that is already
// running (E2E_BASE_URL), with a candidate previewed in every browser context (E2E_PREVIEWS).
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { getSurvey, listArticles } from '@khs/content';
import { expect, test } from '../harness/fixtures.js';
import { buildRemoteFromChangedSource } from '../harness/remoteVariant.js';
import { REPO_ROOT, startStack, type Stack } from '../harness/stack.js';

const run = promisify(execFile);
const REMOTE = 'mf-survey';
const PREVIEW_SECRET = 'e2e-remote-preview-secret-0123456789';
const OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdef';
const article = listArticles().find((candidate) => candidate.surveyHandle && getSurvey(candidate.surveyHandle))!;

let stack: Stack;
let work: string;
let v2: string;
let link: string;

/** Pages rendered per build version of the survey remote (the operators' view). */
async function surveyViews(): Promise<Record<string, number>> {
  const response = await fetch(new URL('/health/remotes.json', stack.url), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const body = (await response.json()) as { remotes: { name: string; failures: { views: Record<string, number> } }[] };
  return body.remotes.find((remote) => remote.name === REMOTE)!.failures.views;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const built = await buildRemoteFromChangedSource(REMOTE, [
    { file: 'src/components/SurveyWidget.tsx', from: '<legend>{question}</legend>', to: '<legend>{question}<span data-release="v2"> (v2)</span></legend>' },
  ]);
  work = built.work;
  v2 = built.version;
  stack = await startStack({ deployedOrigins: path.join(work, 'origins'), env: { REMOTE_PREVIEW_SECRET: PREVIEW_SECRET, OPERATOR_TOKEN } });
  const target = stack.originDirs[REMOTE]!;
  // The shell renders the survey interactive once its warm-up has the remote (retried 2, 4, 8, 16 s
  // later when a manifest fetch fails on a busy machine): no clock of its own, the hook's bounds it.
  await expect.poll(async () => (await (await fetch(new URL(article.url, stack.url))).text()).includes('khs-survey--interactive'), { timeout: 0 }).toBe(true);
  const published = await run('npm', ['run', '--silent', 'deploy', '-w', REMOTE, '--', '--preview', '--site', stack.url, '--to', target, '--from', built.dist], {
    cwd: REPO_ROOT,
    env: { ...process.env, REMOTE_PREVIEW_SECRET: PREVIEW_SECRET },
  });
  link = /preview link \(valid 24 h\): (\S+)/.exec(published.stdout)![1]!;
  expect(JSON.parse(readFileSync(path.join(target, 'mf-manifest.json'), 'utf8')).metaData.buildVersion).not.toBe(v2);
});

test.afterAll(async () => {
  await stack?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the running-site subset passes against a running site with a preview set from the environment, and its pages ran the preview', async () => {
  test.setTimeout(600_000);
  expect((await surveyViews())[v2] ?? 0).toBe(0);
  const child = await run('npm', ['run', '--silent', 'test:against', '-w', 'e2e', '--', '--workers=1', '--reporter=line'], {
    cwd: REPO_ROOT,
    env: { ...process.env, E2E_BASE_URL: stack.url, E2E_PREVIEWS: link, CI: '' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  const output = `${child.stdout}\n${child.stderr}`;
  expect((child as { code?: number }).code ?? 0, output.slice(-4000)).toBe(0);
  expect(output).toMatch(/\d+ passed/);
  expect(output).not.toMatch(/\d+ failed/);
  // The subset's pages were rendered with the previewed build of the survey, not only the live one.
  expect((await surveyViews())[v2] ?? 0).toBeGreaterThan(0);
});
