import { readEdgePolicy } from '@khs/team-service/edge-policy';
import slice from '../../slice.json';

/** The part of the service's edge policy (its `slice.json`'s `service.edgePolicy`) it enforces itself too. */
const policy = readEdgePolicy(slice.service.edgePolicy, 'mf-watchlist/slice.json (service.edgePolicy)');

/** Largest accepted request body of the watchlist call (bytes), declared once in the edge policy (the edge and the service refuse larger). */
export const WATCHLIST_BODY_LIMIT_BYTES = policy.bodyLimit('watchlist');
/** The same for the download (PDF) call. */
export const DOWNLOAD_BODY_LIMIT_BYTES = policy.bodyLimit('download');
