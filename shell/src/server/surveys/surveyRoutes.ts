import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callRoutePattern, DEFAULT_CALL_URLS, type Survey, type SurveyResults } from 'contracts';
import type { ContentStore } from '../content/contentStore.js';
import type { SurveyRepository } from '../database/index.js';
import { SURVEY_VOTE_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import { visitorIdOf } from '../security/visitorIdentity.js';
import { surveyResults } from './surveyResults.js';

/** What the survey routes need. */
export interface SurveyRoutesOptions {
  /** Where surveys (question, answers) are defined. */
  content: ContentStore;
  /** Where votes are stored. */
  surveys: SurveyRepository;
  /** The shell's cookie secret (`COOKIE_SECRET`): keys the voter id derived from the visitor's CSRF secret. */
  cookieSecret: string;
}

/** Purpose of the visitor id a vote is stored under (see `visitorIdOf`). */
export const VOTER_ID_PURPOSE = 'survey-vote';

/** Response of a submission: whether the vote counted, and the results after it. */
export interface SurveySubmissionResponse {
  counted: boolean;
  results: SurveyResults;
}

/** Path of the submission call (PageConfig.calls.surveySubmit). */
export const SURVEY_SUBMIT_PATH = callRoutePattern(DEFAULT_CALL_URLS.surveySubmit);
/** Path of the results call (PageConfig.calls.surveyResults, spec point 7). */
export const SURVEY_RESULTS_PATH = callRoutePattern(DEFAULT_CALL_URLS.surveyResults);

type HandleParams = { Params: { formHandle: string } };

/** Largest submission body (bytes): `{ "answerPosition": n }` is a few dozen. */
export const SURVEY_SUBMISSION_BODY_LIMIT_BYTES = 1024;

/** Longest survey handle looked up; longer ones are unknown without a lookup. */
const MAX_FORM_HANDLE_LENGTH = 100;

function sendError(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).header('cache-control', 'no-store').send({ error });
}

/** The answer position in a submission body, or an error message saying why it is not valid. */
function readAnswerPosition(body: unknown, survey: Survey): { position: number } | { error: string } {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).answerPosition : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) return { error: 'answerPosition must be an integer' };
  if (!survey.answers.some((answer) => answer.position === value)) {
    return { error: `answerPosition ${value} is not an answer of this survey` };
  }
  return { position: value };
}

/**
 * Survey calls:
 * - `POST /api/surveys/:formHandle/submissions` body `{ answerPosition }` (CSRF-checked by the
 *   shell): one vote per browser — the voter id is derived from the visitor's CSRF secret cookie,
 *   the same identity its token is bound to — and at most `SURVEY_VOTE_LIMIT` submissions per
 *   client address and survey (429 beyond). 201 `{ counted: true, results }`, 200
 *   `{ counted: false, results }` when this browser already voted; 404 unknown survey; 415 not
 *   JSON; 422 bad answerPosition; 400 malformed JSON (global handler). Nothing is stored on error.
 * - `GET /api/survey-results/:formHandle`: `{ "<position>": percent }` for every answer,
 *   summing to 100 once anyone voted; never cached.
 */
export async function surveyRoutes(app: FastifyInstance, options: SurveyRoutesOptions): Promise<void> {
  const { content, surveys, cookieSecret } = options;
  const surveyOf = (formHandle: string) => (formHandle.length <= MAX_FORM_HANDLE_LENGTH ? content.getSurvey(formHandle) : undefined);
  // Unknown handles share one counter per address, so made-up handles cannot mint counters.
  const limitScope = (request: FastifyRequest) => `survey:${surveyOf((request.params as { formHandle: string }).formHandle)?.formHandle ?? '?'}`;

  const submitOptions = { bodyLimit: SURVEY_SUBMISSION_BODY_LIMIT_BYTES, config: rateLimitConfig(SURVEY_VOTE_LIMIT, limitScope) };
  app.post<HandleParams>(SURVEY_SUBMIT_PATH, submitOptions, async (request, reply) => {
    const survey = surveyOf(request.params.formHandle);
    if (!survey) return sendError(reply, 404, 'Unknown survey');
    // Fastify also parses text/plain; the submission contract is JSON only.
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendError(reply, 415, 'Send the submission as application/json');
    }
    const answer = readAnswerPosition(request.body, survey);
    if ('error' in answer) return sendError(reply, 422, answer.error);

    const voterId = visitorIdOf(request, VOTER_ID_PURPOSE, cookieSecret);
    // The shell's CSRF check already refused posts without a valid secret cookie.
    if (!voterId) return sendError(reply, 403, 'Missing visitor identity');
    const { counted } = await surveys.recordVote({
      formHandle: survey.formHandle,
      answerPosition: answer.position,
      voterId,
    });
    const body: SurveySubmissionResponse = { counted, results: await surveyResults(survey, surveys) };
    return reply
      .code(counted ? 201 : 200)
      .header('cache-control', 'no-store')
      .send(body);
  });

  app.get<HandleParams>(SURVEY_RESULTS_PATH, async (request, reply) => {
    const survey = surveyOf(request.params.formHandle);
    if (!survey) return sendError(reply, 404, 'Unknown survey');
    return reply.header('cache-control', 'no-store').send(await surveyResults(survey, surveys));
  });
}
