import type { CanaryEnd } from './canaryEndStore.js';
import type { Rollout } from './rollout.js';

/** What the canary parts of the shell know of one remote, for the operators' view. */
export interface CanaryFacts {
  rollout: Rollout | null | undefined;
  /** The shells' recorded end of `rollout.canary`, if the rule ended it. */
  end: CanaryEnd | undefined;
  /** The rule's last verdict on the running canary. */
  verdict: string | undefined;
}
