import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSurveyStorage, type SurveyStorage } from './openSurveyStorage.js';

/** The behaviour both dialects' survey repositories must have. */
function describeSurveyRepository(label: string, open: () => Promise<SurveyStorage>, dispose: () => Promise<void>) {
  describe(`survey repository (${label})`, () => {
    let storage: SurveyStorage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
      await dispose();
    });

      it('counts votes per answer position, per survey', async () => {
        await storage.surveys.recordVote({ formHandle: 'count-a', answerPosition: 0, voterId: 'v1' });
        await storage.surveys.recordVote({ formHandle: 'count-a', answerPosition: 2, voterId: 'v2' });
        await storage.surveys.recordVote({ formHandle: 'count-a', answerPosition: 2, voterId: 'v3' });
        await storage.surveys.recordVote({ formHandle: 'count-b', answerPosition: 1, voterId: 'v1' });
        expect(await storage.surveys.countVotes('count-a')).toEqual({ 0: 1, 2: 2 });
        expect(await storage.surveys.countVotes('count-b')).toEqual({ 1: 1 });
        expect(await storage.surveys.countVotes('never-voted')).toEqual({});
      });

      it('counts only the first vote of a voter on a survey, whatever the answer', async () => {
        expect(await storage.surveys.recordVote({ formHandle: 'once', answerPosition: 1, voterId: 'same' })).toEqual({
          counted: true,
        });
        expect(await storage.surveys.recordVote({ formHandle: 'once', answerPosition: 3, voterId: 'same' })).toEqual({
          counted: false,
        });
        expect(await storage.surveys.countVotes('once')).toEqual({ 1: 1 });
      });

      it('counts exactly 500 of 500 parallel votes from 500 voters', async () => {
        const results = await Promise.all(
          Array.from({ length: 500 }, (_, i) =>
            storage.surveys.recordVote({ formHandle: 'parallel', answerPosition: i % 4, voterId: `voter-${i}` }),
          ),
        );
        expect(results.filter((r) => r.counted)).toHaveLength(500);
        expect(await storage.surveys.countVotes('parallel')).toEqual({ 0: 125, 1: 125, 2: 125, 3: 125 });
      }, 30_000);

      it('counts exactly 1 of 50 parallel duplicate votes from one voter', async () => {
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            storage.surveys.recordVote({ formHandle: 'duplicates', answerPosition: i % 3, voterId: 'eager' }),
          ),
        );
        expect(results.filter((r) => r.counted)).toHaveLength(1);
        const counts = await storage.surveys.countVotes('duplicates');
        expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(1);
      });
  });
}

let dir = '';
describeSurveyRepository(
  'SQLite',
  async () => openSurveyStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-survey-storage-'))) }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeSurveyRepository('PostgreSQL', () => openSurveyStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
