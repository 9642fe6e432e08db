import type { Survey } from 'contracts';
import { ContentValidationError } from './content-validation-error.js';

/**
 * Checks that `x` is a well-formed {@link Survey}: a non-empty `formHandle` and `question`, and 2-5
 * answers whose positions are exactly 1..n in order, each with a non-empty label.
 *
 * @throws {ContentValidationError} naming the first bad field.
 */
export function validateSurvey(x: unknown): Survey {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) {
    throw new ContentValidationError('Invalid survey', '(root)', 'must be an object');
  }
  const fields = x as Record<string, unknown>;
  const subject = typeof fields.formHandle === 'string' ? `Invalid survey "${fields.formHandle}"` : 'Invalid survey';
  if (typeof fields.formHandle !== 'string' || fields.formHandle.trim() === '') {
    throw new ContentValidationError(subject, 'formHandle', 'must be a non-empty string');
  }
  if (typeof fields.question !== 'string' || fields.question.trim() === '') {
    throw new ContentValidationError(subject, 'question', 'must be a non-empty string');
  }
  const answers = fields.answers;
  if (!Array.isArray(answers) || answers.length < 2 || answers.length > 5) {
    throw new ContentValidationError(subject, 'answers', 'must be an array of 2 to 5 answers');
  }
  const validAnswers = answers.map((answer: unknown, index) => {
    const a = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
    if (a.position !== index + 1) {
      throw new ContentValidationError(subject, `answers[${index}].position`, `must be ${index + 1}`);
    }
    if (typeof a.label !== 'string' || a.label.trim() === '') {
      throw new ContentValidationError(subject, `answers[${index}].label`, 'must be a non-empty string');
    }
    return { position: index + 1, label: a.label };
  });
  return { formHandle: fields.formHandle, question: fields.question, answers: validAnswers };
}
