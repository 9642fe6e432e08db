import declaredPolicy from '../edge-policy.json';

/** The part of the collector's edge policy (`server/edge-policy.json`) it enforces itself too. */
interface DeclaredRoute {
  call: string;
  bodyLimitBytes?: number;
}

const events = (declaredPolicy.routes as DeclaredRoute[]).find((entry) => entry.call === 'insights');
if (!events?.bodyLimitBytes) throw new Error('server/edge-policy.json declares no insights call with a body limit');

/** Largest request body (bytes): 50 full events are about 60 KiB. Declared once, in the edge policy (the edge and the collector refuse larger). */
export const INSIGHTS_BODY_LIMIT_BYTES: number = events.bodyLimitBytes;
