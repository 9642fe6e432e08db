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
import { buildTestApp } from '../testing/buildTestApp.js';
import { surveyRoutes } from './surveyRoutes.js';
import { BrowserSession } from './testing/browserSession.js';
import { VOTER_COOKIE_NAME } from './voterCookie.js';

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
    beforeAll(async () => {
      db = await target.open();
      ({ app } = await buildTestApp({ content, features: [{ plugin: surveyRoutes, options: { content, surveys: db.surveys } }] }));
      await app.ready();
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

        const voterCookie = created.cookies.find((cookie) => cookie.name === VOTER_COOKIE_NAME);
        expect(voterCookie).toMatchObject({ httpOnly: true, path: '/', sameSite: 'Lax' });

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

      it('does not trust an unsigned voter cookie', async () => {
        const honest = new BrowserSession(app);
        await honest.vote('load-test', 1);
        const signed = honest.cookies.get(VOTER_COOKIE_NAME) ?? '';
        const voterId = decodeURIComponent(signed).split('.')[0] ?? '';

        // Copying someone's id without a valid signature neither blocks nor impersonates them.
        const forger = new BrowserSession(app);
        forger.cookies.set(VOTER_COOKIE_NAME, voterId);
        const response = await forger.vote('load-test', 2);
        expect(response.statusCode).toBe(201);
        expect(forger.cookies.get(VOTER_COOKIE_NAME)).not.toBe(voterId);
        expect(await db.surveys.countVotes('load-test')).toEqual({ 1: 1, 2: 1 });
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
    });
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
