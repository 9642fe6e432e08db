// The team-loop specs' setting (issue 22: pinned versions, preview): a stack of its own with
// mf-survey live at one build, and a candidate build of it that shows itself.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { getSurvey, listArticles } from '@khs/content';
import { chromium, type Browser, type Locator, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.js';
import { expect } from './fixtures.js';
import { buildRemoteFromChangedSource } from './remoteVariant.js';
import { startStack, type Stack, type StackOptions } from './stack.js';

/** The remote the candidate is built of. */
export const CANDIDATE_REMOTE = 'mf-survey';
/** Markup only the candidate renders: its question shows " (v2)". */
export const RELEASE_MARKER = 'data-release="v2"';

/** An article with a survey. */
const article = listArticles().find((candidate) => candidate.surveyHandle && getSurvey(candidate.surveyHandle))!;

export interface SurveyCandidate {
  stack: Stack;
  browser: Browser;
  /** The live build's version at the start. */
  v1: string;
  /** The candidate's version. */
  v2: string;
  /** The candidate's build output (`deploy --from`), not deployed yet. */
  v2Dist: string;
  /** The article with a survey, on this stack. */
  articleUrl: string;
  /** mf-survey's origin folder (`deploy --to`). */
  originDir: string;
  /** The version the origin serves now. */
  liveVersion(): string;
  /** Closes the browser and the stack, removes the candidate's build. */
  close(): Promise<void>;
}

/**
 * Builds the candidate (mf-survey from a copy of its sources whose question shows " (v2)", server
 * and browser alike), starts a stack whose origins can be deployed to, and a browser; resolves once
 * the shell renders the survey on the server (it warmed its remote up after its start).
 * @param stackOptions  More options of the stack (e.g. its `env`). Default none.
 */
export async function startWithSurveyCandidate(stackOptions: Omit<StackOptions, 'deployedOrigins'> = {}): Promise<SurveyCandidate> {
  const built = await buildRemoteFromChangedSource(CANDIDATE_REMOTE, [
    { file: 'src/components/SurveyWidget.tsx', from: '<legend>{question}</legend>', to: `<legend>{question}<span ${RELEASE_MARKER}> (v2)</span></legend>` },
  ]);
  const stack = await startStack({ ...stackOptions, deployedOrigins: path.join(built.work, 'origins') });
  const browser = await chromium.launch(chromiumLaunchOptions());
  const originDir = stack.originDirs[CANDIDATE_REMOTE]!;
  const articleUrl = new URL(article.url, stack.url).href;
  const liveVersion = () => JSON.parse(readFileSync(path.join(originDir, 'mf-manifest.json'), 'utf8')).metaData.buildVersion as string;
  const v1 = liveVersion();
  expect(built.version).not.toBe(v1);
  await expect.poll(async () => (await (await fetch(articleUrl)).text()).includes('khs-survey--interactive'), { timeout: 20_000 }).toBe(true);
  return {
    stack,
    browser,
    v1,
    v2: built.version,
    v2Dist: built.dist,
    articleUrl,
    originDir,
    liveVersion,
    async close() {
      await browser.close();
      await stack.close();
      rmSync(built.work, { recursive: true, force: true });
    },
  };
}

/** Console errors and warnings of `page` (a hydration mismatch is a warning), and the scripts of `stack`'s mf-survey it loaded. */
export function watchSurveyPage(page: Page, stack: Stack): { problems: string[]; remoteScripts: string[] } {
  const problems: string[] = [];
  const remoteScripts: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().startsWith(stack.remotes[CANDIDATE_REMOTE]!)) remoteScripts.push(request.url());
  });
  return { problems, remoteScripts };
}

/** The survey island, scrolled into view (it hydrates when seen), once it mounted. */
export async function hydratedSurvey(page: Page): Promise<Locator> {
  const island = page.locator(`[data-island="${CANDIDATE_REMOTE}/Survey"]`);
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute('data-island-state', 'mounted');
  await expect(island.locator('form.khs-survey')).toHaveAttribute('data-phase', /answering|results/);
  return island;
}
