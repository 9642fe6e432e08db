import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageFragment } from 'contracts';
import { buildInsightsService } from '../buildInsightsService.js';
import type { RerankOutcome } from '../reranking/rerankLearner.js';
import { openInsightsStorage, type InsightsStorage } from '../storage/openInsightsStorage.js';
import { rerankSwitchSignature } from './rerankSwitch.js';
import { SEARCH_REPORT_PATH } from './searchReportRoutes.js';

const TOKEN = 'editor-token-0123456789abcdef';
const NOW = Date.UTC(2026, 11, 6, 10);
const bearer = { authorization: `Bearer ${TOKEN}` };

const OUTCOME: RerankOutcome = {
  at: NOW,
  applied: [{ query: 'teamwork', pins: [{ id: 'a08', position: 1, from: 8, visitors: 5 }], visitors: 7 }],
  switchedOff: [],
  picksRead: 12,
  queriesSearched: 1,
};

/** The form's fields (the hidden inputs of the switch for `query`), as the browser would send them. */
function switchFields(html: string, query: string): URLSearchParams {
  const row = new RegExp(`<tr data-query="${query}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';
  return new URLSearchParams([...row.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((field) => [field[1]!, field[2]!.replace(/&amp;/g, '&')]));
}

describe("the editors' report: learned re-ranking, per query, with its switch", () => {
  let app: FastifyInstance;
  let storage: InsightsStorage;
  let dir: string;
  let outcome: RerankOutcome | undefined = OUTCOME;
  let learns = 0;
  beforeAll(async () => {
    storage = await openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-rerank-report-'))) });
    const learner = {
      last: () => outcome,
      learnSoon: async () => {
        learns++;
        // The learn the switch starts sees the switch.
        const off = await storage.reranking.switchedOff();
        outcome = off.has('teamwork') ? { ...OUTCOME, applied: [], switchedOff: OUTCOME.applied } : OUTCOME;
      },
    };
    app = await buildInsightsService({ storage, editorTokens: [TOKEN], reranking: { store: storage.reranking, learner, minVisitors: 3, refreshMs: 60_000 }, now: () => NOW });
  });
  afterAll(async () => {
    await app?.close();
    await storage?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const report = async (query = '') => {
    const response = await app.inject({ method: 'GET', url: `${SEARCH_REPORT_PATH}${query ? `?${query}` : ''}`, headers: bearer });
    return { status: response.statusCode, html: (JSON.parse(response.body) as PageFragment).html };
  };

  it('lists the re-ranked queries with what moved, and a switch per query; switching off stores it, learns at once and offers to switch on again', async () => {
    const before = await report();
    expect(before.status).toBe(200);
    expect(before.html).toContain('<h2 id="search-report-reranking">Re-ranked queries</h2>');
    expect(before.html).toMatch(/<tr data-query="teamwork"><th scope="row">teamwork<\/th><td><ul class="search-report__lifted"><li><code>a08<\/code>: 8 → 1 \(5 visitors\)<\/li><\/ul><\/td><td data-column="visitors">7<\/td>/);
    expect(before.html).toContain('Switch off<span class="search-report__hidden"> re-ranking for “teamwork”</span>');
    const fields = switchFields(before.html, 'teamwork');
    expect(Object.fromEntries(fields)).toMatchObject({ rerank: 'off', query: 'teamwork', sig: rerankSwitchSignature(TOKEN, 'off', 'teamwork') });

    const switched = await report(fields.toString());
    expect(switched.status).toBe(200);
    expect(switched.html).toContain('<p role="status" class="search-report__notice">Re-ranking for “teamwork” is off: the text order is back');
    expect(await storage.reranking.switchedOff()).toEqual(new Map([['teamwork', NOW]]));
    expect(learns).toBe(1);
    expect(switched.html).toContain('No query is re-ranked now.');
    // Listed as switched off, with what it would lift and the switch back on.
    expect(switched.html).toMatch(/<table class="search-report__reranking-off"[\s\S]*<tr data-query="teamwork"><th scope="row">teamwork<\/th><td>2026-12-06 10:00<\/td>/);
    const on = switchFields(switched.html, 'teamwork');
    expect(on.get('rerank')).toBe('on');

    // Sent twice (a reload): the same state.
    expect((await report(fields.toString())).status).toBe(200);
    expect(await storage.reranking.switchedOff()).toEqual(new Map([['teamwork', NOW]]));

    expect((await report(on.toString())).html).toContain('Re-ranking for “teamwork” is on again');
    expect(await storage.reranking.switchedOff()).toEqual(new Map());
  });

  it('refuses a switch not signed with the presented token (400, the report with an alert, nothing stored)', async () => {
    for (const query of [
      new URLSearchParams({ rerank: 'off', query: 'teamwork', sig: 'forged' }),
      new URLSearchParams({ rerank: 'off', query: 'teamwork', sig: rerankSwitchSignature('another-token-0123456789', 'off', 'teamwork') }),
      new URLSearchParams({ rerank: 'off', query: 'kpi', sig: rerankSwitchSignature(TOKEN, 'off', 'teamwork') }),
      new URLSearchParams({ rerank: 'sideways', query: 'teamwork', sig: '' }),
      new URLSearchParams({ rerank: 'off', query: '', sig: rerankSwitchSignature(TOKEN, 'off', '') }),
    ]) {
      const refused = await report(query.toString());
      expect(refused.status).toBe(400);
      expect(refused.html).toMatch(/<p role="alert" class="search-report__error">/);
    }
    expect(await storage.reranking.switchedOff()).toEqual(new Map());
  });

  it('says so before the first learn, and when re-ranking is off', async () => {
    outcome = undefined;
    expect((await report()).html).toContain('Nothing learned yet');
    outcome = OUTCOME;
    const off = await buildInsightsService({ storage, editorTokens: [TOKEN], now: () => NOW });
    const response = await off.inject({ method: 'GET', url: SEARCH_REPORT_PATH, headers: bearer });
    expect((JSON.parse(response.body) as PageFragment).html).toContain('it learns only with popularity on');
    await off.close();
  });
});
