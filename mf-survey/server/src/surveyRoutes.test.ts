import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Survey } from 'contracts';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl, type TemporaryPostgresSchema } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSurveyService } from './buildSurveyService.js';
import { openSurveyStorage, type SurveyStorage } from './storage/openSurveyStorage.js';
import { newVoterId, submitThroughEdge, TEST_EDGE_KEY, vote } from './testing/edgeRequests.js';

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
const getSurvey = (handle: string) => SURVEYS[handle];
/** Articles and the surveys they show. */
const ARTICLE_SURVEYS: Record<string, string> = { 'morning-routines': 'coffee' };
const surveyOfArticle = (articleId: string) => (Object.hasOwn(ARTICLE_SURVEYS, articleId) ? SURVEYS[ARTICLE_SURVEYS[articleId]!] : undefined);
const total = (counts: Record<number, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

interface Target {
  open(): Promise<SurveyStorage>;
  dispose(): Promise<void>;
}

function describeSurveyService(label: string, target: Target) {
  describe(`survey service routes (${label})`, () => {
    let storage: SurveyStorage;
    let app: FastifyInstance;
    const buildApp = () => buildSurveyService({ storage, edgeKey: TEST_EDGE_KEY, getSurvey, surveyOfArticle });
    beforeAll(async () => {
      storage = await target.open();
      app = await buildApp();
    });
    afterAll(async () => {
      await app?.close();
      await storage?.close();
      await target.dispose();
    });

    it('answers /health with its storage reachable', async () => {
      const response = await app.inject({ url: '/health' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', service: 'survey' });
    });

    describe("an article's survey (what the island reads when its server render failed)", () => {
      it('answers the survey under the article, never cached', async () => {
        const response = await app.inject({ url: '/api/article-surveys/morning-routines', headers: { accept: 'application/json' } });
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.json()).toEqual(SURVEYS.coffee);
      });

      it('answers 404 JSON for an article without a survey or an unknown one, 414 for an overlong id', async () => {
        expect((await app.inject({ url: `/api/article-surveys/${'x'.repeat(101)}` })).statusCode).toBe(414);
        for (const id of ['quiet-article', encodeURIComponent('../survey-results/coffee')]) {
          const response = await app.inject({ url: `/api/article-surveys/${id}`, headers: { accept: 'application/json' } });
          expect(response.statusCode, id).toBe(404);
          expect(response.json()).toEqual({ error: expect.any(String), code: 'not-found' });
        }
      });
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
        expect(response.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
      });
    });

    describe('bad submissions store nothing', () => {
      const expectNothingStored = async () => expect(await storage.surveys.countVotes('coffee')).toEqual({});

      it('403 when the voter is not named by the edge (no edge key), even with a voter header', async () => {
        const response = await submitThroughEdge(app, 'coffee', JSON.stringify({ answerPosition: 1 }), { edge: false });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
        await expectNothingStored();
      });

      it('404 for an unknown survey', async () => {
        const response = await vote(app, 'nope', 1);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
        expect(await storage.surveys.countVotes('nope')).toEqual({});
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
        const response = await submitThroughEdge(app, 'coffee', payload);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
        await expectNothingStored();
      });

      it('400 JSON error for malformed JSON', async () => {
        const response = await submitThroughEdge(app, 'coffee', '{"answerPosition": 1');
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('415 JSON error for a body that is not JSON', async () => {
        const response = await submitThroughEdge(app, 'coffee', 'answerPosition=1', { contentType: 'text/plain' });
        expect(response.statusCode).toBe(415);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });

      it('400 JSON error for an empty JSON body, 413 for one beyond the limit', async () => {
        const empty = await submitThroughEdge(app, 'coffee', '');
        expect(empty.statusCode).toBe(400);
        expect(empty.json()).toMatchObject({ error: expect.any(String) });
        const stuffed = await submitThroughEdge(app, 'coffee', JSON.stringify({ answerPosition: 1, padding: 'x'.repeat(2000) }));
        expect(stuffed.statusCode).toBe(413);
        expect(stuffed.json()).toMatchObject({ error: expect.any(String) });
        await expectNothingStored();
      });
    });

    describe('voting', () => {
      it('counts one vote per voter and updates the percentages', async () => {
        const first = newVoterId();
        const created = await vote(app, 'coffee', 2, first);
        expect(created.statusCode).toBe(201);
        expect(created.headers['cache-control']).toBe('no-store');
        expect(created.json()).toEqual({ counted: true, results: { 1: 0, 2: 100, 3: 0 } });

        const again = await vote(app, 'coffee', 1, first);
        expect(again.statusCode).toBe(200);
        expect(again.json()).toEqual({ counted: false, results: { 1: 0, 2: 100, 3: 0 } });

        const second = await vote(app, 'coffee', 1);
        expect(second.statusCode).toBe(201);
        expect(second.json()).toEqual({ counted: true, results: { 1: 50, 2: 50, 3: 0 } });

        const third = await vote(app, 'coffee', 3);
        expect(third.json()).toEqual({ counted: true, results: { 1: 34, 2: 33, 3: 33 } });

        const results = await app.inject({ url: '/api/survey-results/coffee', headers: { accept: 'application/json' } });
        expect(results.json()).toEqual({ 1: 34, 2: 33, 3: 33 });
      });

      it('counts 1 of 50 parallel first votes of one voter', async () => {
        const before = total(await storage.surveys.countVotes('coffee'));
        const voterId = newVoterId();
        const parallel = await Promise.all(Array.from({ length: 50 }, (_, i) => vote(app, 'coffee', (i % 3) + 1, voterId)));
        expect(parallel.filter((r) => r.statusCode === 201)).toHaveLength(1);
        expect(parallel.filter((r) => r.statusCode === 200)).toHaveLength(49);
        expect(total(await storage.surveys.countVotes('coffee'))).toBe(before + 1);
      });

      it('keeps one voter to one vote per survey, surveys independently', async () => {
        const voterId = newVoterId();
        expect((await vote(app, 'coffee', 1, voterId)).statusCode).toBe(201);
        expect((await vote(app, 'load-test', 1, voterId)).statusCode).toBe(201);
        expect((await vote(app, 'load-test', 2, voterId)).statusCode).toBe(200);
      });

      it('counts votes correctly across two instances on the same database (alternating, duplicates included)', async () => {
        const secondStorage = await target.open();
        const second = await buildSurveyService({ storage: secondStorage, edgeKey: TEST_EDGE_KEY, getSurvey });
        try {
          const before = total(await storage.surveys.countVotes('load-test'));
          const voters = Array.from({ length: 100 }, () => newVoterId());
          // Each voter votes twice, once on each instance, all at once: 100 count, 100 do not.
          const responses = await Promise.all(voters.flatMap((voterId, i) => [vote(app, 'load-test', 1 + (i % 2), voterId), vote(second, 'load-test', 2, voterId)]));
          expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(100);
          expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(100);
          expect(total(await storage.surveys.countVotes('load-test'))).toBe(before + 100);
        } finally {
          await second.close();
          await secondStorage.close();
        }
      }, 30_000);
    });

    it('counts exactly 500 of 500 parallel submissions from 500 voters', async () => {
      const before = total(await storage.surveys.countVotes('load-test'));
      const responses = await Promise.all(Array.from({ length: 500 }, (_, i) => vote(app, 'load-test', (i % 2) + 1)));
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(500);
      expect(total(await storage.surveys.countVotes('load-test'))).toBe(before + 500);
    }, 30_000);
  });
}

let sqliteDir = '';
describeSurveyService('SQLite', {
  open: () => {
    sqliteDir ||= mkdtempSync(path.join(os.tmpdir(), 'khs-survey-service-'));
    return openSurveyStorage({ dataDir: sqliteDir });
  },
  dispose: async () => rmSync(sqliteDir, { recursive: true, force: true }),
});

const postgresUrl = testDatabaseUrl();
if (postgresUrl) {
  let schema: TemporaryPostgresSchema | undefined;
  describeSurveyService('PostgreSQL', {
    open: () => {
      schema ??= temporaryPostgresSchema(postgresUrl);
      return openSurveyStorage({ dataDir: '', databaseUrl: postgresUrl, schema: schema.schema });
    },
    dispose: () => schema!.drop(),
  });
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
  describe.skip('survey service routes (PostgreSQL)', () => {
    it('runs with TEST_DATABASE_URL or DATABASE_URL', () => undefined);
  });
}
