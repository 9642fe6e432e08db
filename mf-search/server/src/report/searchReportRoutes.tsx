import type { FastifyInstance, FastifyReply } from 'fastify';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactElement } from 'react';
import { PAGE_FRAGMENT_MEDIA_TYPE, SERVICE_PAGE_PATHS, type PageFragment } from 'contracts';
import type { SiteSearchRepository } from '../storage/siteSearchRepository.js';
import type { RerankRepository } from '../storage/rerankRepository.js';
import type { RunningRerankLearner } from '../reranking/rerankLearner.js';
import { EDITOR_REALM, editorAccess, presentedToken } from './editorAccess.js';
import { readRerankSwitch } from './rerankSwitch.js';
import type { RerankingView } from './RerankingSection.js';
import { MAX_REPORT_DAYS } from '../storage/searchReportQueries.js';
import { SEARCH_REPORT_STYLES, SearchReportPage, SearchReportRefusal, type ReportDays } from './SearchReportPage.js';

/** Path of the report (the shell composes it as a page: the edge policy's `pages`). */
export const SEARCH_REPORT_PATH = SERVICE_PAGE_PATHS.searchReport;
/** Days the report covers when no range is asked for (today and the 29 days before). */
export const DEFAULT_REPORT_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function dayStart(text: string): number | undefined {
  if (!DATE_PATTERN.test(text)) return undefined;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === text ? time : undefined;
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The asked-for range (`from`/`to`, days included, UTC), or why it cannot be read. */
export function readReportRange(query: { from?: unknown; to?: unknown }, now: number): { ok: true; days: ReportDays; from: number; to: number } | { ok: false; days: ReportDays; error: string } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const defaults: ReportDays = { from: isoDay(today - (DEFAULT_REPORT_DAYS - 1) * DAY_MS), to: isoDay(today) };
  const fromText = typeof query.from === 'string' && query.from !== '' ? query.from : defaults.from;
  const toText = typeof query.to === 'string' && query.to !== '' ? query.to : defaults.to;
  const asked = { from: fromText.slice(0, 10), to: toText.slice(0, 10) };
  const from = dayStart(fromText);
  const to = dayStart(toText);
  if (from === undefined || to === undefined) return { ok: false, days: defaults, error: 'Give both days as dates (YYYY-MM-DD).' };
  if (from > to) return { ok: false, days: asked, error: 'The first day must not be after the last day.' };
  if ((to - from) / DAY_MS + 1 > MAX_REPORT_DAYS) return { ok: false, days: asked, error: `A report covers at most ${MAX_REPORT_DAYS} days.` };
  return { ok: true, days: asked, from, to: to + DAY_MS };
}

function fragment(title: string, content: ReactElement): PageFragment {
  return { title, pageClass: 'page-search-report', html: renderToStaticMarkup(content), islands: [], styles: SEARCH_REPORT_STYLES };
}

function sendFragment(reply: FastifyReply, status: number, page: PageFragment): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type(PAGE_FRAGMENT_MEDIA_TYPE).send(JSON.stringify(page));
}

/** What the report needs of the learned re-ranking (absent: it is off). */
export interface ReportReranking {
  store: Pick<RerankRepository, 'switchedOff' | 'switchOff' | 'switchOn'>;
  learner: Pick<RunningRerankLearner, 'last' | 'learnSoon'>;
  minVisitors: number;
  refreshMs: number;
}

/**
 * Applies a re-ranking switch the address carries (signed with the editor's token), starts a learn
 * so it takes effect at once, and returns what the report shows of the re-ranking.
 */
async function rerankingView(reranking: ReportReranking, query: Record<string, unknown>, editorToken: string, now: number): Promise<{ view: RerankingView; refused: boolean }> {
  const asked = readRerankSwitch(query, editorToken);
  if (asked.kind === 'switch') {
    if (asked.action === 'off') await reranking.store.switchOff(asked.query, now);
    else await reranking.store.switchOn(asked.query);
    await reranking.learner.learnSoon();
  }
  const view: RerankingView = {
    outcome: reranking.learner.last(),
    switchedOff: await reranking.store.switchedOff(),
    minVisitors: reranking.minVisitors,
    refreshMs: reranking.refreshMs,
    switched: asked.kind === 'switch' ? { action: asked.action, query: asked.query } : undefined,
    refusal: asked.kind === 'refused' ? asked.reason : undefined,
  };
  return { view, refused: asked.kind === 'refused' };
}

/**
 * The editors' search report, `GET /editors/search-report?from=YYYY-MM-DD&to=YYYY-MM-DD`, as a
 * `PageFragment` the shell composes: only with an editor token in `Authorization` (HTTP Basic with
 * the token as password, which a browser asks for, or `Bearer`). No token configured: 404 (the
 * report is off). No token presented: 401 with a Basic challenge; a wrong one: 403; a range it
 * cannot read: 400 with the form — each a page with no figures. With re-ranking on, `rerank=off|on`,
 * `query` and `sig` switch one query's learned re-ranking (a switch not signed with the editor's
 * token: 400, the report with an alert, nothing changed).
 */
export async function searchReportRoutes(app: FastifyInstance, options: { searches: SiteSearchRepository; editorTokens: readonly string[]; reranking?: ReportReranking | undefined; now?: () => number }): Promise<void> {
  const now = options.now ?? Date.now;
  if (options.editorTokens.length === 0) return;
  app.get<{ Querystring: { from?: unknown; to?: unknown; rerank?: unknown; query?: unknown; sig?: unknown } }>(SEARCH_REPORT_PATH, async (request, reply) => {
    const access = editorAccess(request.headers.authorization, options.editorTokens);
    if (access === 'missing') {
      reply.header('www-authenticate', `Basic realm="${EDITOR_REALM}", charset="UTF-8"`);
      return sendFragment(reply, 401, fragment('Search report', <SearchReportRefusal heading="Editors only" text="The search report needs the editor token: sign in with any user name and the token as password." />));
    }
    if (access === 'wrong') {
      return sendFragment(reply, 403, fragment('Search report', <SearchReportRefusal heading="Not allowed" text="That token does not open the search report. Ask the site's operators for the editor token." />));
    }
    const range = readReportRange(request.query, now());
    if (!range.ok) {
      return sendFragment(reply, 400, fragment('Search report', <SearchReportRefusal heading="Search report" text="Choose the days to report on." days={range.days} error={range.error} />));
    }
    const editorToken = presentedToken(request.headers.authorization)!;
    const reranking = options.reranking ? await rerankingView(options.reranking, request.query, editorToken, now()) : undefined;
    const figures = await options.searches.report({ from: range.from, to: range.to });
    const page = <SearchReportPage figures={figures} days={range.days} reranking={reranking?.view} editorToken={editorToken} />;
    return sendFragment(reply, reranking?.refused ? 400 : 200, fragment('Search report', page));
  });
}
