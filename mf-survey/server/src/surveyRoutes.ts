import type { FastifyInstance, FastifyReply } from 'fastify';
import { callRoutePattern, DEFAULT_CALL_URLS, type Survey, type SurveyResults } from 'contracts';
import { trustedVisitorId } from '@khs/team-service/edge';
import type { SurveyRepository } from './storage/surveyRepository.js';
import { MAX_FORM_HANDLE_LENGTH, SURVEY_SUBMISSION_BODY_LIMIT_BYTES } from './edgePolicy.js';
import { surveyResults } from './surveyResults.js';
import { sendApiError } from '@khs/team-service/errors';

/** What the survey routes need. */
export interface SurveyRoutesOptions {
  /** Looks a survey (question, answers) up by its handle; undefined when there is none. */
  getSurvey(formHandle: string): Survey | undefined;
  /** The survey shown under the public article with this id, or undefined (no such article, or none). */
  surveyOfArticle(articleId: string): Survey | undefined;
  /** Where votes are stored. */
  surveys: SurveyRepository;
  /** Its own edge key (registry `edgeKeyEnv`): only requests carrying it may name a voter. */
  edgeKey: string;
}

/** Response of a submission: whether the vote counted, and the results after it. */
export interface SurveySubmissionResponse {
  counted: boolean;
  results: SurveyResults;
}

/** Path of the submission call (PageConfig.calls.surveySubmit). */
export const SURVEY_SUBMIT_PATH = callRoutePattern(DEFAULT_CALL_URLS.surveySubmit);
/** Path of the results call (PageConfig.calls.surveyResults, spec point 7). */
export const SURVEY_RESULTS_PATH = callRoutePattern(DEFAULT_CALL_URLS.surveyResults);

/** Path of the article-survey call (PageConfig.calls.articleSurvey): what the survey island reads when its server render failed. */
export const ARTICLE_SURVEY_PATH = callRoutePattern(DEFAULT_CALL_URLS.articleSurvey);

type HandleParams = { Params: { formHandle: string } };

export { SURVEY_SUBMISSION_BODY_LIMIT_BYTES } from './edgePolicy.js';

/** The one JSON error shape (`{ error, code }`, the code from the status: `not-found`, `unprocessable`…). */
function sendError(reply: FastifyReply, status: number, error: string) {
  return sendApiError(reply, { statusCode: status, message: error });
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
 * Survey calls, reached by browsers through the shell's proxy (which checks the CSRF token and the
 * per-address limit first, and names the voter):
 * - `POST /api/surveys/:formHandle/submissions` body `{ answerPosition }`: one vote per voter — the
 *   id the edge derived from the visitor's signed cookie (`x-khs-visitor-id`, believed only with the
 *   edge key). 201 `{ counted: true, results }`, 200 `{ counted: false, results }` when this voter
 *   already voted; 404 unknown survey; 415 not JSON; 422 bad answerPosition; 400 malformed JSON;
 *   403 without a voter named by the edge. Nothing is stored on error.
 * - `GET /api/survey-results/:formHandle`: `{ "<position>": percent }` for every answer, summing to
 *   100 once anyone voted (largest remainder); never cached.
 * - `GET /api/article-surveys/:articleId`: the survey (`{ formHandle, question, answers }`) under the
 *   public article with this id; 404 when there is no such article or it has none.
 */
export async function surveyRoutes(app: FastifyInstance, options: SurveyRoutesOptions): Promise<void> {
  const { surveys, edgeKey } = options;
  const surveyOf = (formHandle: string) => (formHandle.length <= MAX_FORM_HANDLE_LENGTH ? options.getSurvey(formHandle) : undefined);

  app.post<HandleParams>(SURVEY_SUBMIT_PATH, { bodyLimit: SURVEY_SUBMISSION_BODY_LIMIT_BYTES }, async (request, reply) => {
    const survey = surveyOf(request.params.formHandle);
    if (!survey) return sendError(reply, 404, 'Unknown survey');
    // Fastify also parses text/plain; the submission contract is JSON only.
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendError(reply, 415, 'Send the submission as application/json');
    }
    const answer = readAnswerPosition(request.body, survey);
    if ('error' in answer) return sendError(reply, 422, answer.error);

    const voterId = trustedVisitorId(request.headers, edgeKey);
    if (!voterId) return sendError(reply, 403, 'Missing visitor identity');
    const { counted } = await surveys.recordVote({ formHandle: survey.formHandle, answerPosition: answer.position, voterId });
    const body: SurveySubmissionResponse = { counted, results: await surveyResults(survey, surveys) };
    return reply
      .code(counted ? 201 : 200)
      .header('cache-control', 'no-store')
      .send(body);
  });

  app.get<{ Params: { articleId: string } }>(ARTICLE_SURVEY_PATH, async (request, reply) => {
    // An id longer than Fastify's parameter limit (100) was already answered 414.
    const survey = options.surveyOfArticle(request.params.articleId);
    if (!survey) return sendError(reply, 404, 'No survey for this article');
    return reply.header('cache-control', 'no-store').send({ formHandle: survey.formHandle, question: survey.question, answers: survey.answers });
  });

  app.get<HandleParams>(SURVEY_RESULTS_PATH, async (request, reply) => {
    const survey = surveyOf(request.params.formHandle);
    if (!survey) return sendError(reply, 404, 'Unknown survey');
    return reply.header('cache-control', 'no-store').send(await surveyResults(survey, surveys));
  });
}
