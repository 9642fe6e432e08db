import { popularitySwitchFromEnv, POPULARITY_SWITCH_ENV } from 'contracts';

/** How much one counted click and one counted conversion (watchlist save) add, before decay. */
export interface PopularityWeights {
  click: number;
  conversion: number;
}

/** The popularity settings of the search team's service. */
export interface PopularitySettings {
  /** `SEARCH_POPULARITY` (`on`/`off`, default off): write `popularity` at all. */
  enabled: boolean;
  /** `SEARCH_POPULARITY_WEIGHTS` (`click:1,conversion:5` by default). */
  weights: PopularityWeights;
  /** `SEARCH_POPULARITY_HALF_LIFE_DAYS` (default 14): an event this old weighs half. */
  halfLifeMs: number;
  /**
   * `SEARCH_POPULARITY_VISITOR_WINDOW_HOURS` (default 24): one visitor's clicks (or conversions)
   * on one article within one such window count once.
   */
  visitorWindowMs: number;
  /** `SEARCH_POPULARITY_MIN_VISITORS` (default 3): an article needs this many distinct visitors before it gets any popularity. */
  minVisitors: number;
  /** `SEARCH_POPULARITY_REFRESH_SECONDS` (default 60): how often the scores are recomputed and written. */
  refreshMs: number;
}

/** The settings when nothing is configured. */
export const DEFAULT_POPULARITY_SETTINGS: PopularitySettings = {
  enabled: false,
  weights: { click: 1, conversion: 5 },
  halfLifeMs: 14 * 24 * 3_600_000,
  visitorWindowMs: 24 * 3_600_000,
  minVisitors: 3,
  refreshMs: 60_000,
};

/** A popularity setting that cannot be used; the service does not start with one. */
export class PopularitySettingsError extends Error {}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, { integer = false, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max || (integer && !Number.isInteger(value))) {
    throw new PopularitySettingsError(`${name} must be a positive ${integer ? 'whole ' : ''}number up to ${max}, got "${raw}"`);
  }
  return value;
}

/** Parses `click:1,conversion:5`; both names are required, each weight from 0 to 1000. */
export function parsePopularityWeights(raw: string): PopularityWeights {
  const weights: Partial<PopularityWeights> = {};
  for (const part of raw.split(',')) {
    const match = /^\s*(click|conversion)\s*[:=]\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    const value = match ? Number(match[2]) : NaN;
    if (!match || !(value <= 1000) || match[1]! in weights) {
      throw new PopularitySettingsError(`SEARCH_POPULARITY_WEIGHTS must be "click:<weight>,conversion:<weight>" with weights from 0 to 1000, got "${raw}"`);
    }
    weights[match[1] as keyof PopularityWeights] = value;
  }
  if (weights.click === undefined || weights.conversion === undefined) {
    throw new PopularitySettingsError(`SEARCH_POPULARITY_WEIGHTS must give both click and conversion, got "${raw}"`);
  }
  return weights as PopularityWeights;
}

/**
 * Reads the popularity settings from the environment (see {@link PopularitySettings} for each
 * variable and default). The switch is contracts' `SEARCH_POPULARITY`, the one the shell reads for
 * the site's sort.
 * @throws PopularitySettingsError when a value is set and unusable.
 */
export function readPopularitySettings(env: NodeJS.ProcessEnv = process.env): PopularitySettings {
  let enabled: boolean;
  try {
    enabled = popularitySwitchFromEnv(env);
  } catch (error) {
    throw new PopularitySettingsError((error as Error).message || `${POPULARITY_SWITCH_ENV} must be on or off`);
  }
  const defaults = DEFAULT_POPULARITY_SETTINGS;
  return {
    enabled,
    weights: env.SEARCH_POPULARITY_WEIGHTS?.trim() ? parsePopularityWeights(env.SEARCH_POPULARITY_WEIGHTS) : defaults.weights,
    halfLifeMs: positiveNumber(env, 'SEARCH_POPULARITY_HALF_LIFE_DAYS', defaults.halfLifeMs / 86_400_000, { max: 3650 }) * 86_400_000,
    visitorWindowMs: positiveNumber(env, 'SEARCH_POPULARITY_VISITOR_WINDOW_HOURS', defaults.visitorWindowMs / 3_600_000, { max: 24 * 365 }) * 3_600_000,
    minVisitors: positiveNumber(env, 'SEARCH_POPULARITY_MIN_VISITORS', defaults.minVisitors, { integer: true, max: 1_000_000 }),
    refreshMs: positiveNumber(env, 'SEARCH_POPULARITY_REFRESH_SECONDS', defaults.refreshMs / 1000, { max: 86_400 }) * 1000,
  };
}
