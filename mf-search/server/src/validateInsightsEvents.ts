import { INSIGHTS_EVENT_CHUNK } from 'contracts';
import type { InsightsEvent } from './storage/insightsEventRepository.js';

/**
 * Most events one request may carry. The site's client sends one user action per request (a
 * view of 100 hits is 5 events of `INSIGHTS_EVENT_CHUNK` ids), so 50 leaves room.
 */
export const MAX_EVENTS_PER_REQUEST = 50;
/** Longest event name accepted (the insights API's limit). */
export const MAX_EVENT_NAME_LENGTH = 64;
/** Longest user token accepted (the insights API's limit). */
export const MAX_USER_TOKEN_LENGTH = 129;
/** Longest index name accepted. */
export const MAX_INDEX_NAME_LENGTH = 64;
/** Longest object id or query id accepted. */
export const MAX_IDENTIFIER_LENGTH = 128;
/** Highest result position accepted (1-based; infinite scroll past this is implausible). */
export const MAX_POSITION = 10_000;
/** Oldest accepted event timestamp, relative to the server's clock (the insights API's own 4 days). */
export const MAX_EVENT_AGE_MS = 4 * 24 * 60 * 60 * 1000;
/** Furthest accepted event timestamp in the future (client clocks run a little fast). */
export const MAX_EVENT_FUTURE_MS = 60 * 60 * 1000;

const EVENT_TYPES = new Set(['click', 'view', 'conversion']);
const EVENT_KEYS = new Set(['eventType', 'eventName', 'index', 'userToken', 'objectIDs', 'positions', 'queryID', 'timestamp']);
/** What search-insights' user tokens look like (anonymous-<uuid> or a site's own id). */
const USER_TOKEN_PATTERN = /^[A-Za-z0-9_=/+:.-]+$/;
/** Event names: printable words, as InstantSearch's ("Hits Viewed") and ours ("Article Saved"). */
const EVENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 _.,:()/-]*$/;
/** Index names: the search server's collection names. */
const INDEX_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Object ids (article ids) and query ids: URL-safe tokens. */
const IDENTIFIER_PATTERN = /^[A-Za-z0-9_.:~-]+$/;

/** Validation outcome: the events to store, or the first problem found. */
export type InsightsValidation = { ok: true; events: InsightsEvent[] } | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdentifier(value: unknown, maxLength = MAX_IDENTIFIER_LENGTH, pattern = IDENTIFIER_PATTERN): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= maxLength && pattern.test(value);
}

function validateEvent(event: unknown, at: string, now: number): InsightsEvent | string {
  if (!isRecord(event)) return `${at} must be an object`;
  const unknownKey = Object.keys(event).find((key) => !EVENT_KEYS.has(key));
  if (unknownKey) return `${at}.${unknownKey} is not a known field`;
  const { eventType, eventName, index, userToken, objectIDs, positions, queryID, timestamp } = event;
  if (typeof eventType !== 'string' || !EVENT_TYPES.has(eventType)) return `${at}.eventType must be click, view or conversion`;
  if (!isIdentifier(eventName, MAX_EVENT_NAME_LENGTH, EVENT_NAME_PATTERN)) {
    return `${at}.eventName must be 1 to ${MAX_EVENT_NAME_LENGTH} characters of letters, digits, spaces or _.,:()/-`;
  }
  if (!isIdentifier(index, MAX_INDEX_NAME_LENGTH, INDEX_NAME_PATTERN)) {
    return `${at}.index must be 1 to ${MAX_INDEX_NAME_LENGTH} characters of letters, digits or _.-`;
  }
  if (!isIdentifier(userToken, MAX_USER_TOKEN_LENGTH, USER_TOKEN_PATTERN)) {
    return `${at}.userToken must be 1 to ${MAX_USER_TOKEN_LENGTH} characters of letters, digits or _=/+:.-`;
  }
  if (!Array.isArray(objectIDs) || objectIDs.length === 0 || objectIDs.length > INSIGHTS_EVENT_CHUNK) {
    return `${at}.objectIDs must list 1 to ${INSIGHTS_EVENT_CHUNK} object ids`;
  }
  if (!objectIDs.every((id) => isIdentifier(id))) {
    return `${at}.objectIDs must be ids of 1 to ${MAX_IDENTIFIER_LENGTH} characters of letters, digits or _.:~-`;
  }
  if (positions !== undefined) {
    if (!Array.isArray(positions) || positions.length !== objectIDs.length) return `${at}.positions must match objectIDs one to one`;
    if (!positions.every((position) => Number.isInteger(position) && position > 0 && position <= MAX_POSITION)) {
      return `${at}.positions must be integers from 1 to ${MAX_POSITION}`;
    }
  }
  if (queryID !== undefined && !isIdentifier(queryID)) {
    return `${at}.queryID must be 1 to ${MAX_IDENTIFIER_LENGTH} characters of letters, digits or _.:~-`;
  }
  if (
    timestamp !== undefined &&
    (!Number.isSafeInteger(timestamp) || (timestamp as number) < now - MAX_EVENT_AGE_MS || (timestamp as number) > now + MAX_EVENT_FUTURE_MS)
  ) {
    return `${at}.timestamp must be milliseconds since the epoch, at most 4 days old and at most 1 hour ahead`;
  }
  return {
    eventType: eventType as InsightsEvent['eventType'],
    eventName,
    index,
    userToken,
    objectIds: objectIDs as string[],
    ...(positions !== undefined ? { positions: positions as number[] } : {}),
    ...(queryID !== undefined ? { queryId: queryID } : {}),
    timestamp: (timestamp as number | undefined) ?? now,
  };
}

/**
 * Strictly validates a search-insights payload `{ events: [...] }`: every event is click, view
 * or conversion on 1 to `INSIGHTS_EVENT_CHUNK` object ids, with no unknown fields; names, ids
 * and tokens by length and alphabet; positions 1 to `MAX_POSITION`; a timestamp within
 * `MAX_EVENT_AGE_MS` before and `MAX_EVENT_FUTURE_MS` after `now` (so it always fits the
 * 64-bit integer column). All or nothing: one bad event rejects the request.
 * @param now  The server's clock; also the timestamp of events without one. Default `Date.now()`.
 */
export function validateInsightsEvents(body: unknown, now: number = Date.now()): InsightsValidation {
  if (!isRecord(body) || !Array.isArray(body.events)) return { ok: false, error: 'The body must be { events: [...] }' };
  if (body.events.length === 0 || body.events.length > MAX_EVENTS_PER_REQUEST) {
    return { ok: false, error: `events must hold 1 to ${MAX_EVENTS_PER_REQUEST} events` };
  }
  const events: InsightsEvent[] = [];
  for (const [position, event] of body.events.entries()) {
    const result = validateEvent(event, `events[${position}]`, now);
    if (typeof result === 'string') return { ok: false, error: result };
    events.push(result);
  }
  return { ok: true, events };
}
