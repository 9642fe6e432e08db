/** Thrown when an article or survey does not have the expected shape; the message names the bad field. */
export class ContentValidationError extends Error {
  /** Dotted path of the offending field, e.g. `topic[2]` or `gallery[0].alt`. */
  readonly field: string;

  constructor(subject: string, field: string, problem: string) {
    super(`${subject}: field "${field}" ${problem}`);
    this.name = 'ContentValidationError';
    this.field = field;
  }
}
