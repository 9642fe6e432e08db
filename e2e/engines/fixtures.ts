import { test as base, expect } from '@playwright/test';
import { cspViolations, describeCurrentWait, endWaits, type Engine, type EngineName, type EnginePage, type EngineSession } from './driver.js';
import { launchEngine } from './engines.js';
import type { EnginesSite } from './globalSetup.js';

export interface EngineFixtureOptions {
  /** The project's engine. */
  engineName: EngineName;
}

/** A visitor: a session of its own; every tab it opens is checked for CSP violations when the test ends. */
export interface Visitor {
  open(url: string): Promise<EnginePage>;
}

interface Fixtures {
  /** Names, in the report, what the test was waiting for when it timed out. */
  namedWait: void;
  /** The visitor of the test (JavaScript on). */
  visitor: Visitor;
  /** The visitor's first tab. */
  tab: EnginePage;
  /** Another visitor, with scripts off or on, opened on demand. */
  newVisitor: (options?: { javaScript?: boolean }) => Promise<Visitor>;
}

interface WorkerFixtures extends EngineFixtureOptions {
  engine: Engine;
  site: EnginesSite;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  engineName: ['chromium', { option: true, scope: 'worker' }],
  engine: [
    async ({ engineName }, provide) => {
      const engine = await launchEngine(engineName);
      await provide(engine);
      await engine.close();
    },
    // Firefox's first start takes about 20 s on two cores.
    { scope: 'worker', timeout: 120_000 },
  ],
  site: [async ({}, provide) => provide(JSON.parse(process.env.E2E_ENGINES_SITE!) as EnginesSite), { scope: 'worker' }],
  newVisitor: async ({ engine, site }, provide) => {
    const sessions: EngineSession[] = [];
    const tabs: EnginePage[] = [];
    await provide(async (options) => {
      const session = await engine.newSession(options);
      sessions.push(session);
      return {
        async open(url) {
          const tab = await session.newPage();
          tabs.push(tab);
          await tab.goto(new URL(url, site.url).href);
          return tab;
        },
      };
    });
    // A test that timed out is still waiting: its waits end before its tabs are read and closed.
    endWaits();
    // No page of any engine breaks the CSP: what each tab's documents recorded, and what the
    // driver heard (Firefox reports violations as page errors, Chromium on its console).
    const violations: string[] = [];
    for (const tab of tabs) {
      violations.push(...(await cspViolations(tab).catch(() => [])));
      violations.push(...tab.errors().filter((text) => /Content[- ]Security[- ]Policy/i.test(text)));
    }
    for (const session of sessions) await session.close();
    expect(violations, 'CSP violations').toEqual([]);
  },
  namedWait: [
    async ({}, provide, testInfo) => {
      await provide();
      const waiting = describeCurrentWait();
      if (testInfo.status === 'timedOut' && waiting) {
        testInfo.annotations.push({ type: 'timed out', description: waiting });
        console.log(`[${testInfo.project.name}] ${testInfo.title}: timed out ${waiting}`);
      }
    },
    { auto: true },
  ],
  visitor: async ({ newVisitor }, provide) => provide(await newVisitor()),
  tab: async ({ visitor }, provide) => provide(await visitor.open('about:blank')),
});

export { expect };
