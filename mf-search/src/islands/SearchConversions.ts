import type { IslandMount } from 'contracts';
import { configuredSearchIndexName } from '../config/searchIndexName.js';
import { startConversionTracking } from '../tracking/conversionTracking.js';

/**
 * Every page's conversion listener, without React or any search code: the page places this island
 * (no markup, hydrated when the browser is idle) so that a watchlist save on any page — an article
 * page opened from a search above all — is heard even when nobody touches the header search, which
 * waits for the reader's interaction. A page whose search is misconfigured records no conversion.
 * @returns stop listening
 */
const mount: IslandMount = (_element, _props, context) => {
  const indexName = configuredSearchIndexName(context.config.search);
  if (typeof indexName !== 'string' || indexName.trim() === '') return () => {};
  return startConversionTracking({ endpoint: context.config.calls.insights, index: indexName, bus: context.bus, getConsent: context.getConsent });
};

export default mount;
