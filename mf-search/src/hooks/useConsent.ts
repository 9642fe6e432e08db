import { useEffect, useState } from 'react';
import type { ConsentState, IslandContext } from 'contracts';

/**
 * The visitor's consent: read from the shell at start, then kept fresh from the bus event
 * `consent-changed` that the shell's consent panel emits.
 */
export function useConsent({ bus, getConsent }: Pick<IslandContext, 'bus' | 'getConsent'>): ConsentState {
  const [consent, setConsent] = useState<ConsentState>(() => getConsent());
  useEffect(() => {
    setConsent(getConsent());
    return bus.on('consent-changed', setConsent);
  }, [bus, getConsent]);
  return consent;
}
