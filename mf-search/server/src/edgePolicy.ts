import declaredPolicy from '../edge-policy.json';

/** The part of the service's edge policy (`server/edge-policy.json`) it enforces itself too. */
interface DeclaredRoute {
  call: string;
  bodyLimitBytes?: number;
}

function declaredBodyLimit(call: string): number {
  const route = (declaredPolicy.routes as DeclaredRoute[]).find((entry) => entry.call === call);
  if (!route?.bodyLimitBytes) throw new Error(`server/edge-policy.json declares no ${call} call with a body limit`);
  return route.bodyLimitBytes;
}

/** Largest request body (bytes): 50 full events are about 60 KiB. Declared once, in the edge policy (the edge and the collector refuse larger). */
export const INSIGHTS_BODY_LIMIT_BYTES: number = declaredBodyLimit('insights');
/** Largest site-search record (bytes). Declared once, in the edge policy. */
export const SITE_SEARCH_BODY_LIMIT_BYTES: number = declaredBodyLimit('siteSearch');
