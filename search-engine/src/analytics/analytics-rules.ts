import { ApiError } from '../api-error.js';

/**
 * Typesense 30 analytics rules (`src/analytics_manager.cpp`, `doc_analytics.cpp`,
 * `search_analytics.cpp` at the v30 refactor): one flat rule per event stream, named by the
 * events that feed it. Validation follows Typesense's order and messages.
 */

export type RuleType = 'popular_queries' | 'nohits_queries' | 'counter' | 'log';
export type EventType = 'search' | 'click' | 'conversion' | 'visit' | 'custom';

/** A validated rule, in the shape Typesense answers `GET /analytics/rules/:name` with. */
export interface AnalyticsRule {
  name: string;
  type: RuleType;
  collection: string;
  event_type: EventType;
  rule_tag: string;
  /** Absent on document `log` rules (as Typesense answers them). */
  params?: {
    /** popular/nohits: where the queries are counted; counter: the documents counted (default `collection`). */
    destination_collection?: string;
    /** popular/nohits: documents kept in the destination (top by `count`). */
    limit?: number;
    /** counter: the numeric field incremented. */
    counter_field?: string;
    /** counter: added per event. */
    weight?: number;
    /** search rules: count the query completed to the first hit's words (`typ` → `typesense`). Default false. */
    expand_query?: boolean;
    /** search rules: searches on `collection` feed the rule, not only events. Default true. */
    capture_search_requests?: boolean;
    /** search rules: `filter_by` and/or `analytics_tag` kept with each query. */
    meta_fields?: string[];
  };
}

/** Which half of Typesense's analytics a rule belongs to: document events or search events. */
export function ruleFamily(rule: Pick<AnalyticsRule, 'event_type'>): 'doc' | 'search' {
  return rule.event_type === 'search' ? 'search' : 'doc';
}

const DOC_EVENTS = new Set(['click', 'conversion', 'visit', 'custom']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUnsigned(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

function combinationIsValid(eventType: string, type: string): boolean {
  if (DOC_EVENTS.has(eventType)) return type === 'counter' || type === 'log';
  if (eventType === 'search') return type === 'log' || type === 'nohits_queries' || type === 'popular_queries';
  return false;
}

/** What rule validation needs to know about the server's collections. */
export interface RuleContext {
  collectionExists(name: string): boolean;
  /** False while restoring stored rules (Typesense skips the collection checks then). */
  live: boolean;
}

/**
 * Validates a rule payload (a new rule, or an existing one merged with an update) and returns the
 * canonical rule. Throws ApiError(400) with Typesense's message.
 */
export function validateRule(payload: Record<string, unknown>, context: RuleContext, isNew: boolean): AnalyticsRule {
  if (isNew) {
    if (typeof payload.event_type !== 'string') throw new ApiError(400, 'Event type is required when creating a new analytics rule');
    if (typeof payload.type !== 'string') throw new ApiError(400, 'Type is required when creating a new analytics rule');
    if (typeof payload.collection !== 'string') throw new ApiError(400, 'Collection is required when creating a new analytics rule');
    if (context.live && !context.collectionExists(payload.collection)) throw new ApiError(400, `Collection ${payload.collection} does not exist`);
    if (payload.rule_tag !== undefined && typeof payload.rule_tag !== 'string') throw new ApiError(400, 'Rule tag should be a string');
    if (!combinationIsValid(payload.event_type, payload.type)) throw new ApiError(400, 'Event type or type is invalid (or) combination of both is invalid');
  }
  const name = payload.name as string;
  const type = payload.type as RuleType;
  const eventType = payload.event_type as EventType;
  const collection = payload.collection as string;
  const ruleTag = typeof payload.rule_tag === 'string' ? payload.rule_tag : '';
  const params = isObject(payload.params) ? payload.params : {};

  if (eventType !== 'search') {
    // Typesense answers a document log rule without `params`.
    if (type === 'log') return { name, type, collection, event_type: eventType, rule_tag: ruleTag };
    if (typeof params.counter_field !== 'string' || params.counter_field === '') throw new ApiError(400, 'Counter field is required when creating a counter type rule');
    if (params.destination_collection !== undefined && (typeof params.destination_collection !== 'string' || params.destination_collection === '')) {
      throw new ApiError(400, 'Destination collection should be a string');
    }
    if (!isUnsigned(params.weight) || params.weight === 0) throw new ApiError(400, 'Weight should be a number greater than 0');
    if (context.live && params.destination_collection !== undefined && !context.collectionExists(params.destination_collection)) {
      throw new ApiError(400, 'Destination collection does not exist');
    }
    return {
      name,
      type,
      collection,
      event_type: eventType,
      rule_tag: ruleTag,
      params: { counter_field: params.counter_field, destination_collection: params.destination_collection ?? collection, weight: params.weight },
    };
  }

  if (params.expand_query !== undefined && typeof params.expand_query !== 'boolean') throw new ApiError(400, 'Expand query should be a boolean');
  if (params.capture_search_requests !== undefined && typeof params.capture_search_requests !== 'boolean') throw new ApiError(400, 'Capture search requests should be a boolean');
  if (params.meta_fields !== undefined && !Array.isArray(params.meta_fields)) throw new ApiError(400, 'Meta fields should be an array of strings');
  const metaFields: string[] = [];
  for (const field of (params.meta_fields as unknown[] | undefined) ?? []) {
    if (typeof field !== 'string' || field === '') throw new ApiError(400, 'Meta field should a non-empty string');
    if (field !== 'filter_by' && field !== 'analytics_tag') throw new ApiError(400, 'Meta field should be either filter_by or analytics_tag');
    if (!metaFields.includes(field)) metaFields.push(field);
  }
  // Typesense keeps them in a std::set: sorted, without duplicates.
  metaFields.sort();
  const searchParams: AnalyticsRule['params'] = {
    expand_query: params.expand_query === true,
    capture_search_requests: params.capture_search_requests !== false,
  };
  if (metaFields.length > 0) searchParams.meta_fields = metaFields;
  if (type === 'popular_queries' || type === 'nohits_queries') {
    if (typeof params.destination_collection !== 'string' || params.destination_collection === '') {
      throw new ApiError(400, 'Destination collection is required when creating a no hit queries or popular queries type rule');
    }
    if (context.live && !context.collectionExists(params.destination_collection)) throw new ApiError(400, 'Destination collection does not exist');
    if (!isUnsigned(params.limit) || params.limit === 0) throw new ApiError(400, 'Limit should be a number greater than 0');
    searchParams.destination_collection = params.destination_collection;
    searchParams.limit = params.limit;
  }
  return { name, type, collection, event_type: eventType, rule_tag: ruleTag, params: searchParams };
}

/**
 * `PUT /analytics/rules/:name` on an existing rule: type, collection and event type stay; the
 * tag and the params Typesense lets change are taken from the update, then the whole is checked again.
 */
export function mergeRuleUpdate(existing: AnalyticsRule, update: Record<string, unknown>): Record<string, unknown> {
  // (a document log rule has no params to change; Typesense ignores them too)
  if (update.type !== undefined && update.type !== existing.type) throw new ApiError(400, 'Rule type cannot be changed');
  if (update.collection !== undefined && update.collection !== existing.collection) throw new ApiError(400, 'Rule collection cannot be changed');
  if (update.event_type !== undefined && update.event_type !== existing.event_type) throw new ApiError(400, 'Rule event type cannot be changed');
  if (update.rule_tag !== undefined && typeof update.rule_tag !== 'string') throw new ApiError(400, 'Rule tag should be a string');
  const merged: Record<string, unknown> = { ...existing, params: { ...(existing.params ?? {}) } };
  if (update.rule_tag !== undefined) merged.rule_tag = update.rule_tag;
  const params = merged.params as Record<string, unknown>;
  if (isObject(update.params)) {
    const changeable = ruleFamily(existing) === 'doc' ? ['counter_field', 'destination_collection', 'weight'] : ['limit', 'destination_collection', 'expand_query', 'capture_search_requests', 'meta_fields'];
    for (const key of changeable) if (update.params[key] !== undefined) params[key] = update.params[key];
  }
  return merged;
}

/** Reads a rule request body: an object with a non-empty `name`. */
export function requireRuleName(payload: unknown): Record<string, unknown> & { name: string } {
  if (!isObject(payload) || typeof payload.name !== 'string' || payload.name === '') throw new ApiError(400, 'Name is required when creating an analytics rule');
  return payload as Record<string, unknown> & { name: string };
}
