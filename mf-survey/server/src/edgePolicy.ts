import { readEdgePolicy } from '@khs/team-service/edge-policy';
import slice from '../../slice.json';

/** The part of the service's edge policy (its `slice.json`'s `service.edgePolicy`) the service enforces itself too. */
const policy = readEdgePolicy(slice.service.edgePolicy, 'mf-survey/slice.json (service.edgePolicy)');

/**
 * Largest submission body (bytes): `{ "answerPosition": n }` is a few dozen. Declared once, in the
 * edge policy: the shell's edge refuses larger bodies before forwarding, this service as well.
 */
export const SURVEY_SUBMISSION_BODY_LIMIT_BYTES: number = policy.bodyLimit('surveySubmit');

/**
 * Longest survey handle looked up; longer ones are unknown without a lookup. The same bound the
 * edge uses for the vote limit's per-survey counters (the policy's `rateLimit.scope.maxLength`).
 */
export const MAX_FORM_HANDLE_LENGTH: number = policy.rateLimitScopeMaxLength('surveySubmit');
