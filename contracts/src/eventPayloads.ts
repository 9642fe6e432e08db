// Tolerant reading of event payloads, so producers and consumers built against different minor
// versions of contracts understand each other: fields this version does not know are dropped,
// optional fields it knows but the producer left out get their defaults, and a payload without a
// required field is refused (it cannot be understood, so no listener sees half of it).
import { readLocalWatchlist } from './guards.js';
import { SITE_EVENT_DEFAULTS, type ReceivedSiteEvent, type SiteEventName } from './events.js';

/** Reads one field: its value as this version knows it, or undefined when it is not valid. */
type FieldReader = (value: unknown) => { value: unknown } | undefined;

const check =
  (test: (value: unknown) => boolean): FieldReader =>
  (value) =>
    test(value) ? { value } : undefined;
const isString = check((value) => typeof value === 'string');
const isCount = check((value) => typeof value === 'number' && Number.isInteger(value) && value >= 0);
const isBoolean = check((value) => typeof value === 'boolean');
/** A watchlist is read like one from storage: entries this version cannot read are dropped. */
const isWatchlist: FieldReader = (value) =>
  typeof value === 'object' && value !== null && typeof (value as { articles?: unknown }).articles === 'object'
    ? { value: readLocalWatchlist(value).watchlist }
    : undefined;

/** Every field this version knows per event: required ones, and optional ones (with a default or none). */
const SITE_EVENT_FIELDS: { [K in SiteEventName]: { required: Record<string, FieldReader>; optional?: Record<string, FieldReader> } } = {
  'watchlist-updated': { required: { watchlist: isWatchlist, count: isCount } },
  'watchlist-added': { required: { id: isString, title: isString, added: isBoolean }, optional: { source: isString } },
  'search-submitted': { required: { query: isString, hitCount: isCount } },
  'consent-panel-requested': { required: { source: isString } },
  'consent-changed': { required: { insights: isBoolean, tracking: isBoolean } },
};

/** Why a payload was refused, for the one log line the bus writes. */
export class SiteEventPayloadError extends Error {
  constructor(
    readonly type: string,
    readonly field: string,
  ) {
    super(`"${type}" payload without a valid "${field}"`);
    this.name = 'SiteEventPayloadError';
  }
}

/**
 * The payload of `type` as this contracts version defines it: known fields only, defaults for
 * missing optional ones. Throws {@link SiteEventPayloadError} when a required field is missing or
 * has the wrong type. Unknown event names pass through unchanged (a newer producer's new event
 * has no listener built against this version anyway).
 */
export function readSiteEvent<K extends SiteEventName>(type: K, payload: unknown): ReceivedSiteEvent<K> {
  const fields = SITE_EVENT_FIELDS[type] as (typeof SITE_EVENT_FIELDS)[SiteEventName] | undefined;
  if (!fields) return payload as ReceivedSiteEvent<K>;
  const source = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const read: Record<string, unknown> = {};
  for (const [field, readField] of Object.entries(fields.required)) {
    const value = readField(source[field]);
    if (!value) throw new SiteEventPayloadError(type, field);
    read[field] = value.value;
  }
  const defaults: Record<string, unknown> = (SITE_EVENT_DEFAULTS as Partial<Record<SiteEventName, Record<string, unknown>>>)[type] ?? {};
  for (const [field, readField] of Object.entries(fields.optional ?? {})) {
    const value = source[field] === undefined ? undefined : readField(source[field]);
    if (value) read[field] = value.value;
    else if (field in defaults) read[field] = defaults[field];
  }
  return read as ReceivedSiteEvent<K>;
}
