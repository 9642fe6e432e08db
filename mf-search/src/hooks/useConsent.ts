import { useEffect, useRef, useState } from 'react';
import type { ConsentState, IslandContext } from 'contracts';

/**
 * The visitor's consent: read from the shell at start, then kept fresh from the bus event
 * `consent-changed` that the shell's consent panel emits.
 */
export function useConsent({ bus, getConsent }: Pick<IslandContext, 'bus' | 'getConsent'>): ConsentState {
  const [consent, setConsent] = useState<ConsentState>(() => getConsent());
  const latestGetConsent = useRef(getConsent);
  latestGetConsent.current = getConsent;
  useEffect(() => {
    // Consent may have changed between the first render and subscribing.
    setConsent(latestGetConsent.current());
    return bus.on('consent-changed', setConsent);
  }, [bus]);
  return consent;
}
