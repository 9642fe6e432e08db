import { readEdgePolicy } from '@khs/team-service/edge-policy';
import slice from '../../slice.json';

/**
 * Largest contact post (bytes), refused by its declared length at the edge and here: the largest
 * attachment (5 MB, spec) plus 1 MiB for the text fields and the multipart framing. Declared once,
 * in the edge policy (its `slice.json`'s `service.edgePolicy`).
 */
export const CONTACT_POST_MAX_BYTES: number = readEdgePolicy(slice.service.edgePolicy, 'contact/slice.json (service.edgePolicy)').formPageMaxBodyBytes('contact');
