import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEFAULT_CALL_URLS } from 'contracts';
import { EDGE_KEY_HEADER, VISITOR_ID_HEADER, edgeKeyOf } from '@khs/team-service/edge';

/** The cookie secret of these tests; the edge key derives from it. */
export const TEST_COOKIE_SECRET = 'survey-service-test-cookie-secret-0123456789';
export const TEST_EDGE_KEY = edgeKeyOf(TEST_COOKIE_SECRET);

/** A fresh voter id, as the edge derives one per browser (22 base64url characters). */
export function newVoterId(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

/** The submission path of `formHandle`. */
export function submissionUrl(formHandle: string): string {
  return DEFAULT_CALL_URLS.surveySubmit.replace('{formHandle}', encodeURIComponent(formHandle));
}

/**
 * POSTs `payload` (a raw string, so malformed JSON can be sent) to the service the way the shell's
 * proxy forwards a browser's submission: with the edge key and the voter id (unless `edge: false`).
 */
export function submitThroughEdge(
  app: FastifyInstance,
  formHandle: string,
  payload: string,
  options: { voterId?: string; edge?: boolean; contentType?: string } = {},
): Promise<LightMyRequestResponse> {
  const voterId = options.voterId ?? newVoterId();
  return app.inject({
    method: 'POST',
    url: submissionUrl(formHandle),
    headers: {
      'content-type': options.contentType ?? 'application/json',
      accept: 'application/json',
      [VISITOR_ID_HEADER]: voterId,
      ...(options.edge === false ? {} : { [EDGE_KEY_HEADER]: TEST_EDGE_KEY }),
    },
    payload,
  });
}

/** A vote for `answerPosition` by `voterId` (a new voter when omitted). */
export function vote(app: FastifyInstance, formHandle: string, answerPosition: number, voterId?: string): Promise<LightMyRequestResponse> {
  return submitThroughEdge(app, formHandle, JSON.stringify({ answerPosition }), voterId ? { voterId } : {});
}
