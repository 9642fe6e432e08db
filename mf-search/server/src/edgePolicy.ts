import { readEdgePolicy } from '@khs/team-service/edge-policy';
import slice from '../../slice.json';

const policy = readEdgePolicy(slice.service.edgePolicy, 'mf-search/slice.json (service.edgePolicy)');

/** Largest request body (bytes): 50 full events are about 60 KiB. Declared once, in the collector's edge policy (its `slice.json`'s `service.edgePolicy`; the edge and the collector refuse larger). */
export const INSIGHTS_BODY_LIMIT_BYTES: number = policy.bodyLimit('insights');
/** Largest site-search record (bytes). Declared once, in the edge policy. */
export const SITE_SEARCH_BODY_LIMIT_BYTES: number = policy.bodyLimit('siteSearch');
