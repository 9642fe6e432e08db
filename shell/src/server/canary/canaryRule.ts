// The canary rule: one place decides whether a canary build is clearly worse than the stable one.
// Framework-free on purpose (no store, no clock, no HTTP): the monitor feeds it counts.

/** Page views and failures of one build version since the canary started. */
export interface VersionTraffic {
  /** Page views that ran this build (the browser's view beacon). */
  views: number;
  /**
   * Failures of this build: server render failures, browser island failures and hydration
   * mismatches. More failures than views (several failures on one page) count as one per view.
   */
  failures: number;
}

/** What the rule is asked about: the stable build's traffic and the canary build's. */
export interface CanaryEvidence {
  stable: VersionTraffic;
  canary: VersionTraffic;
}

/** The rule's verdict: keep the canary running, or end it (rolled back) with a reason an operator reads. */
export type CanaryVerdict = { decision: 'continue'; reason: string } | { decision: 'end'; reason: string };

/** The rule's thresholds; every default is in {@link DEFAULT_CANARY_RULE}. */
export interface CanaryRuleSettings {
  /** Canary page views needed before the rule may end it. */
  minCanaryViews: number;
  /** Canary failures needed before the rule may end it (one unlucky page never ends a canary). */
  minCanaryFailures: number;
  /** Failure rate per view the canary may exceed the stable's by without being "worse" (absolute, 0..1). */
  margin: number;
  /** One-sided z threshold the difference must reach (2.326 ≈ 1 % chance of a false end). */
  zThreshold: number;
}

/**
 * Defaults of the canary rule (stated in the shell README, "Canary"): at least 20 canary views and
 * 5 canary failures, and the canary's failure rate above the stable's plus 2 points with one-sided
 * 99 % confidence.
 */
export const DEFAULT_CANARY_RULE: Readonly<CanaryRuleSettings> = Object.freeze({
  minCanaryViews: 20,
  minCanaryFailures: 5,
  margin: 0.02,
  zThreshold: 2.326,
});

const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;

/** Views and failures made sound: non-negative integers, at most one failure per view. */
function clean({ views, failures }: VersionTraffic): VersionTraffic {
  const safeViews = Number.isFinite(views) && views > 0 ? Math.floor(views) : 0;
  const safeFailures = Number.isFinite(failures) && failures > 0 ? Math.floor(failures) : 0;
  return { views: safeViews, failures: Math.min(safeFailures, safeViews) };
}

/**
 * Decides whether the canary is clearly worse than the stable build. The test is one-sided on the
 * difference of the failure rates per view, H0: canary ≤ stable + margin, with the Agresti–Caffo
 * adjustment (one failure and one success added to each side) so that small samples and rates of
 * 0 or 1 give a sound standard error instead of a zero one. The canary ends when
 * z = (p̃canary − p̃stable − margin) / se ≥ `zThreshold`, and only once it has `minCanaryViews`
 * views and `minCanaryFailures` failures. No stable traffic means no baseline: the adjusted stable
 * rate is ½ with a wide error, so only an overwhelming canary sample could end it.
 * @param settings  Overrides of {@link DEFAULT_CANARY_RULE}.
 */
export function evaluateCanary(evidence: CanaryEvidence, settings: Partial<CanaryRuleSettings> = {}): CanaryVerdict {
  const rule = { ...DEFAULT_CANARY_RULE, ...settings };
  const stable = clean(evidence.stable);
  const canary = clean(evidence.canary);
  const observed = `canary ${canary.failures}/${canary.views} views failed, stable ${stable.failures}/${stable.views}`;
  if (canary.views < rule.minCanaryViews) {
    return { decision: 'continue', reason: `${observed}: fewer than ${rule.minCanaryViews} canary views` };
  }
  if (canary.failures < rule.minCanaryFailures) {
    return { decision: 'continue', reason: `${observed}: fewer than ${rule.minCanaryFailures} canary failures` };
  }
  const canaryRate = (canary.failures + 1) / (canary.views + 2);
  const stableRate = (stable.failures + 1) / (stable.views + 2);
  const standardError = Math.sqrt((canaryRate * (1 - canaryRate)) / (canary.views + 2) + (stableRate * (1 - stableRate)) / (stable.views + 2));
  const z = (canaryRate - stableRate - rule.margin) / standardError;
  const rates = `canary fails ${percent(canary.failures / canary.views)} of ${canary.views} views, stable ${stable.views === 0 ? 'has no views' : `${percent(stable.failures / stable.views)} of ${stable.views}`}`;
  if (z >= rule.zThreshold) {
    return { decision: 'end', reason: `${rates}: worse than stable + ${percent(rule.margin)} (z = ${z.toFixed(2)} ≥ ${rule.zThreshold})` };
  }
  return { decision: 'continue', reason: `${rates}: not clearly worse (z = ${z.toFixed(2)} < ${rule.zThreshold})` };
}
