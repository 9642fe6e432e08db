/** An error that maps to an HTTP status and a Typesense-style `{"message": …}` body. */
export class ApiError extends Error {
  constructor(
    /** HTTP status code (400, 401, 404, 409, 413, 422, …). */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
