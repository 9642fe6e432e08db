/**
 * `fetch` with a deadline that also fails on a non-2xx status (the error's `status`): the federation
 * runtime evaluates whatever body it gets (a 404 page becomes a SyntaxError) and never gives up on a
 * hanging origin.
 */
export async function fetchWithTimeout(
  fetchImpl: typeof fetch,
  url: string,
  timeoutMs: number,
  init: RequestInit = {},
): Promise<Response> {
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetchImpl(url, { ...init, signal });
  } catch (error) {
    if ((error as Error)?.name === 'TimeoutError') throw new Error(`no answer from ${url} within ${timeoutMs} ms`, { cause: error });
    throw error;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw Object.assign(new Error(`HTTP ${response.status} for ${url}`), { status: response.status });
  }
  return response;
}
