import declaredPolicy from '../edge-policy.json';

/** The part of the service's edge policy (`server/edge-policy.json`) it enforces itself too. */
interface DeclaredRoute {
  call: string;
  bodyLimitBytes?: number;
}

function declaredBodyLimit(call: string): number {
  const limit = (declaredPolicy.routes as DeclaredRoute[]).find((entry) => entry.call === call)?.bodyLimitBytes;
  if (!limit) throw new Error(`server/edge-policy.json declares no ${call} call with a body limit`);
  return limit;
}

/** Largest accepted request body of the watchlist call (bytes), declared once in the edge policy (the edge and the service refuse larger). */
export const WATCHLIST_BODY_LIMIT_BYTES = declaredBodyLimit('watchlist');
/** The same for the download (PDF) call. */
export const DOWNLOAD_BODY_LIMIT_BYTES = declaredBodyLimit('download');
