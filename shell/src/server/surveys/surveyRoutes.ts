import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Survey, SurveyResults } from 'contracts';
import type { ContentStore } from '../content/contentStore.js';
import type { SurveyRepository } from '../database/index.js';
import { surveyResults } from './surveyResults.js';
import { voterIdFor } from './voterCookie.js';

/** What the survey routes need. */
export interface SurveyRoutesOptions {
  /** Where surveys (question, answers) are defined. */
  content: ContentStore;
  /** Where votes are stored. */
  surveys: SurveyRepository;
}

/** Response of a submission: whether the vote counted, and the results after it. */
export interface SurveySubmissionResponse {
  counted: boolean;
  results: SurveyResults;
}

/** Path of the submission call (PageConfig.calls.surveySubmit). */
export const SURVEY_SUBMIT_PATH = '/api/surveys/:formHandle/submissions';
/** Path of the results call (PageConfig.calls.surveyResults, spec point 7). */
export const SURVEY_RESULTS_PATH = '/api/survey-results/:formHandle';

type HandleParams = { Params: { formHandle: string } };

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
 *   shell): one vote per browser (signed `khs_voter` cookie). 201 `{ counted: true, results }`,
 *   200 `{ counted: false, results }` when this browser already voted; 404 unknown survey;
 *   415 not JSON; 422 bad answerPosition; 400 malformed JSON (global handler). Nothing is stored on error.
 * - `GET /api/survey-results/:formHandle`: `{ "<position>": percent }` for every answer,
 *   summing to 100 once anyone voted; never cached.
 */
export async function surveyRoutes(app: FastifyInstance, options: SurveyRoutesOptions): Promise<void> {
  const { content, surveys } = options;

  app.post<HandleParams>(SURVEY_SUBMIT_PATH, async (request, reply) => {
    const survey = content.getSurvey(request.params.formHandle);
    if (!survey) return sendError(reply, 404, 'Unknown survey');
    // Fastify also parses text/plain; the submission contract is JSON only.
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return sendError(reply, 415, 'Send the submission as application/json');
    }
    const answer = readAnswerPosition(request.body, survey);
    if ('error' in answer) return sendError(reply, 422, answer.error);

    const voterId = voterIdFor(request, reply);
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
    const survey = content.getSurvey(request.params.formHandle);
    if (!survey) return sendError(reply, 404, 'Unknown survey');
    return reply.header('cache-control', 'no-store').send(await surveyResults(survey, surveys));
  });
}
