import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Survey } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryContentStore, type ContentStore } from '../content/contentStore.js';
import { openDatabase, type Database } from '../database/index.js';
import { createTemporaryPostgresSchema, type TemporaryPostgresSchema } from '../database/testing/temporaryPostgresSchema.js';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, testDatabaseUrl } from '../database/testing/testDatabaseUrl.js';
import { CSRF_COOKIE_MAX_AGE_SECONDS, CSRF_COOKIE_NAME } from '../security/csrf.js';
import { SURVEY_VOTE_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { buildTestApp, TEST_COOKIE_SECRET } from '../testing/buildTestApp.js';
import { surveyRoutes } from './surveyRoutes.js';
import { BrowserSession, uniqueClientAddress } from './testing/browserSession.js';

const SURVEYS: Record<string, Survey> = {
  coffee: {
    formHandle: 'coffee',
    question: 'How do you take your coffee?',
    answers: [
      { position: 1, label: 'Black' },
      { position: 2, label: 'With milk' },
      { position: 3, label: 'Not at all' },
    ],
  },
  'stuffing': {
    formHandle: 'stuffing',
    question: 'Stuffed?',
    answers: [
      { position: 1, label: 'A' },
      { position: 2, label: 'B' },
    ],
  },
  'load-test': {
    formHandle: 'load-test',
    question: 'Parallel?',
    answers: [
      { position: 1, label: 'A' },
      { position: 2, label: 'B' },
    ],
  },
};

const content: ContentStore = { ...repositoryContentStore, getSurvey: (handle) => SURVEYS[handle] };

interface Target {
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

function describeSurveyRoutes(label: string, target: Target) {
  describe(`survey routes (${label})`, () => {
    let db: Database;
    let app: FastifyInstance;
    const buildApp = async () => {
      const built = await buildTestApp({
        content,
        rateLimitCounters: db.rateLimitCounters,
        features: [{ plugin: surveyRoutes, options: { content, surveys: db.surveys, cookieSecret: TEST_COOKIE_SECRET } }],
      });
      await built.app.ready();
      return built.app;
    };
    beforeAll(async () => {
      db = await target.open();
      app = await buildApp();
    });
    afterAll(async () => {
      await app?.close();
      await db?.close();
      await target.dispose();
    });

    describe('results', () => {
      it('gives every answer 0 before any vote, never cached', async () => {
        const response = await app.inject({ url: '/api/survey-results/coffee', headers: { accept: 'application/json' } });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.json()).toEqual({ 1: 0, 2: 0, 3: 0 });
      });

      it('answers 404 JSON for an unknown survey', async () => {
        const response = await app.inject({ url: '/api/survey-results/nope', headers: { accept: 'application/json' } });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: expect.any(String) });
      });
    });

    describe('bad submissions store nothing', () => {
      const expectNothingStored = async () => expect(await db.surveys.countVotes('coffee')).toEqual({});

      it('403 without a CSRF token', async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/surveys/coffee/submissions',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ answerPosition: 1 }),
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('403 with a token from another browser', async () => {
        const other = new BrowserSession(app);
        const token = await other.csrfToken();
        const response = await new BrowserSession(app).submit('coffee', JSON.stringify({ answerPosition: 1 }), token);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('404 for an unknown survey', async () => {
        const response = await new BrowserSession(app).vote('nope', 1);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: expect.any(String) });
        expect(await db.surveys.countVotes('nope')).toEqual({});
      });

      it.each([
        ['out of range (above)', '{"answerPosition": 4}'],
        ['out of range (zero)', '{"answerPosition": 0}'],
        ['negative', '{"answerPosition": -1}'],
        ['a fraction', '{"answerPosition": 1.5}'],
        ['a numeric string', '{"answerPosition": "1"}'],
        ['null', '{"answerPosition": null}'],
        ['missing', '{"answer": 1}'],
        ['not an object', '[1]'],
        ['a bare number', '1'],
      ])('422 when answerPosition is %s', async (_case, payload) => {
        const response = await new BrowserSession(app).submit('coffee', payload);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('400 JSON error for malformed JSON', async () => {
        const response = await new BrowserSession(app).submit('coffee', '{"answerPosition": 1');
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('415 JSON error for a body that is not JSON', async () => {
        const browser = new BrowserSession(app);
        const token = await browser.csrfToken();
        const response = await browser.request({
          method: 'POST',
          url: '/api/surveys/coffee/submissions',
          headers: { 'content-type': 'text/plain', 'x-csrf-token': token },
          payload: 'answerPosition=1',
        });
        expect(response.statusCode).toBe(415);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('400 JSON error for an empty JSON body', async () => {
        const response = await new BrowserSession(app).submit('coffee', '');
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });
    });

    describe('voting', () => {
      it('counts one vote per browser and updates the percentages', async () => {
        const first = new BrowserSession(app);
        const created = await first.vote('coffee', 2);
        expect(created.statusCode).toBe(201);
        expect(created.headers['cache-control']).toBe('no-store');
        expect(created.json()).toEqual({ counted: true, results: { 1: 0, 2: 100, 3: 0 } });

        // One visitor identity: the CSRF secret cookie (set with the token), no separate voter cookie.
        expect(created.cookies).toEqual([]);
        expect([...first.cookies.keys()]).toEqual([CSRF_COOKIE_NAME]);

        const again = await first.vote('coffee', 1);
        expect(again.statusCode).toBe(200);
        expect(again.json()).toEqual({ counted: false, results: { 1: 0, 2: 100, 3: 0 } });

        const second = await new BrowserSession(app).vote('coffee', 1);
        expect(second.statusCode).toBe(201);
        expect(second.json()).toEqual({ counted: true, results: { 1: 50, 2: 50, 3: 0 } });

        const third = await new BrowserSession(app).vote('coffee', 3);
        expect(third.json()).toEqual({ counted: true, results: { 1: 34, 2: 33, 3: 33 } });

        const results = await app.inject({ url: '/api/survey-results/coffee', headers: { accept: 'application/json' } });
        expect(results.json()).toEqual({ 1: 34, 2: 33, 3: 33 });
      });

      it('issues the visitor identity with the CSRF secret: signed, httpOnly, kept for a year', async () => {
        const response = await app.inject({ url: '/actions/blitz/csrf/token', remoteAddress: uniqueClientAddress() });
        const cookie = response.cookies.find((c) => c.name === CSRF_COOKIE_NAME);
        expect(cookie).toMatchObject({ httpOnly: true, path: '/', sameSite: 'Lax', maxAge: CSRF_COOKIE_MAX_AGE_SECONDS });
        expect(cookie?.value).toMatch(/\./); // signed
      });

      it('counts 1 of 50 sequential votes from a browser that keeps its CSRF cookie (and drops any other)', async () => {
        const browser = new BrowserSession(app);
        const responses = [];
        for (let i = 0; i < 50; i += 1) {
          for (const name of [...browser.cookies.keys()]) if (name !== CSRF_COOKIE_NAME) browser.cookies.delete(name);
          responses.push((await browser.vote('stuffing', (i % 2) + 1)).statusCode);
        }
        expect(responses.filter((status) => status === 201)).toHaveLength(1);
        expect(responses.filter((status) => status === 200)).toHaveLength(SURVEY_VOTE_LIMIT.max - 1);
        expect(responses.filter((status) => status === 429)).toHaveLength(50 - SURVEY_VOTE_LIMIT.max);
        expect(await db.surveys.countVotes('stuffing')).toEqual({ 1: 1 });
      });

      it('counts 1 of 50 parallel first votes from one cookie jar', async () => {
        const before = Object.values(await db.surveys.countVotes('coffee')).reduce((a, b) => a + b, 0);
        const jar = new BrowserSession(app);
        const jarToken = await jar.csrfToken();
        const parallel = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            app.inject({
              method: 'POST',
              url: '/api/surveys/coffee/submissions',
              remoteAddress: uniqueClientAddress(), // even from 50 addresses: one identity
              headers: { cookie: jar.cookieHeader, 'x-csrf-token': jarToken, 'content-type': 'application/json' },
              payload: JSON.stringify({ answerPosition: (i % 3) + 1 }),
            }),
          ),
        );
        expect(parallel.filter((r) => r.statusCode === 201)).toHaveLength(1);
        expect(parallel.filter((r) => r.statusCode === 200)).toHaveLength(49);
        expect(Object.values(await db.surveys.countVotes('coffee')).reduce((a, b) => a + b, 0)).toBe(before + 1);
      });

      it('limits a script that throws its cookies away to the per-address limit (429 JSON beyond, nothing stored)', async () => {
        const address = uniqueClientAddress();
        const statuses: number[] = [];
        let refused;
        for (let i = 0; i < 50; i += 1) {
          const response = await new BrowserSession(app, address).vote('stuffing', 2);
          statuses.push(response.statusCode);
          if (response.statusCode === 429) refused = response;
        }
        expect(statuses.filter((status) => status === 201)).toHaveLength(SURVEY_VOTE_LIMIT.max);
        expect(statuses.filter((status) => status === 429)).toHaveLength(50 - SURVEY_VOTE_LIMIT.max);
        expect(refused!.headers['content-type']).toMatch(/^application\/json/);
        expect(refused!.json()).toMatchObject({ error: expect.any(String), code: 'rate-limited' });
        expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
        expect((await db.surveys.countVotes('stuffing'))[2]).toBe(SURVEY_VOTE_LIMIT.max);
        // Another survey from the same address has its own allowance.
        expect((await new BrowserSession(app, address).vote('coffee', 1)).statusCode).toBe(201);
      });

      it('shares the per-address limit between two instances on the same database', async () => {
        const second = await buildApp();
        try {
          const address = uniqueClientAddress();
          const statuses: number[] = [];
          for (let i = 0; i < SURVEY_VOTE_LIMIT.max + 4; i += 1) {
            const instance = i % 2 === 0 ? app : second;
            statuses.push((await new BrowserSession(instance, address).vote('load-test', 1)).statusCode);
          }
          expect(statuses.filter((status) => status === 201)).toHaveLength(SURVEY_VOTE_LIMIT.max);
          expect(statuses.slice(SURVEY_VOTE_LIMIT.max)).toEqual([429, 429, 429, 429]);
        } finally {
          await second.close();
        }
      });

      it('refuses a forged or unsigned CSRF secret cookie (403, nothing stored)', async () => {
        const honest = new BrowserSession(app);
        const token = await honest.csrfToken();
        const signed = honest.cookies.get(CSRF_COOKIE_NAME)!;
        const unsigned = decodeURIComponent(signed).split('.')[0]!;
        const forger = new BrowserSession(app);
        forger.cookies.set(CSRF_COOKIE_NAME, unsigned);
        const before = await db.surveys.countVotes('coffee');
        const response = await forger.submit('coffee', JSON.stringify({ answerPosition: 1 }), token);
        expect(response.statusCode).toBe(403);
        expect(await db.surveys.countVotes('coffee')).toEqual(before);
      });

      it('keeps one browser to one vote across surveys independently', async () => {
        const browser = new BrowserSession(app);
        expect((await browser.vote('coffee', 1)).statusCode).toBe(201);
        expect((await browser.vote('load-test', 1)).statusCode).toBe(201);
        expect((await browser.vote('load-test', 2)).statusCode).toBe(200);
      });
    });

    it('counts exactly 500 of 500 parallel submissions from 500 browsers', async () => {
      const before = await db.surveys.countVotes('load-test');
      const totalBefore = Object.values(before).reduce((a, b) => a + b, 0);
      const browsers = Array.from({ length: 500 }, () => new BrowserSession(app));
      const tokens = await Promise.all(browsers.map((browser) => browser.csrfToken()));
      const responses = await Promise.all(
        browsers.map((browser, i) =>
          browser.submit('load-test', JSON.stringify({ answerPosition: (i % 2) + 1 }), tokens[i]),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(500);
      const after = await db.surveys.countVotes('load-test');
      expect(Object.values(after).reduce((a, b) => a + b, 0)).toBe(totalBefore + 500);
    }, 30_000); // 500 browsers' token calls and votes (each also a rate-limit counter write), on a shared 2-core machine
  });
}

let sqliteDir = '';
describeSurveyRoutes('SQLite', {
  open: () => {
    sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'khs-survey-routes-'));
    return openDatabase({ dataDir: sqliteDir });
  },
  dispose: async () => rmSync(sqliteDir, { recursive: true, force: true }),
});

const postgresUrl = testDatabaseUrl();
if (postgresUrl) {
  let schema: TemporaryPostgresSchema;
  describeSurveyRoutes('PostgreSQL', {
    open: async () => {
      schema = await createTemporaryPostgresSchema(postgresUrl);
      return openDatabase({ dataDir: '/unused', databaseUrl: schema.url });
    },
    dispose: () => schema.drop(),
  });
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
  describe.skip('survey routes (PostgreSQL)', () => {
    it('runs with TEST_DATABASE_URL or DATABASE_URL', () => undefined);
  });
}
