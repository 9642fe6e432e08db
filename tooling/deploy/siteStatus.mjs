// What `khs-deploy status` shows of the running site: the operators' JSON of the shell
// (`/health/remotes.json`, with `OPERATOR_TOKEN`), reduced to one remote's builds.

/** Path of the shell's operators' JSON (shell/src/server/health/healthRoutes.tsx). */
export const REMOTES_HEALTH_JSON_PATH = '/health/remotes.json';

/**
 * Reads the site's operators' JSON. Never throws: `{ ok: false, error }` says what an operator
 * must fix (no token, a wrong one, the view turned off, the site unreachable).
 * @param {{ site: string, token?: string, fetch?: typeof fetch, timeoutMs?: number }} options
 *   `timeoutMs` default 10000.
 */
export async function fetchSiteHealth({ site, token, fetch: fetchImpl = fetch, timeoutMs = 10_000 }) {
  if (!token) return { ok: false, error: `OPERATOR_TOKEN is not set: it is needed to read ${site}${REMOTES_HEALTH_JSON_PATH}` };
  let url;
  try {
    url = new URL(REMOTES_HEALTH_JSON_PATH, site);
  } catch {
    return { ok: false, error: `--site / PUBLIC_BASE_URL "${site}" is not a URL` };
  }
  let response;
  try {
    response = await fetchImpl(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { ok: false, error: `${url} did not answer: ${error.message}` };
  }
  if (response.status === 401) return { ok: false, error: `${url} refused the operator token (401): check OPERATOR_TOKEN` };
  if (response.status === 404) return { ok: false, error: `${url} is not there (404): the site runs without OPERATOR_TOKEN, so its operators' view is off` };
  if (!response.ok) return { ok: false, error: `${url} answered ${response.status}` };
  try {
    return { ok: true, body: await response.json() };
  } catch {
    return { ok: false, error: `${url} did not answer JSON` };
  }
}

const percent = (rate) => `${(rate * 100).toFixed(1)} %`;

/**
 * Lines for one remote of the operators' JSON: each build seen in the window with its views,
 * failures (browser + server) and failure rate per view, marked stable or canary where the site's
 * canary (`remotes[].canary`: `{ state, share, startedAt, stable: { version }, canary: { version },
 * verdict, ended }`) says so, and how the canary ended if it did.
 */
export function formatRemoteStatus(health, remote) {
  const entry = health?.remotes?.find((candidate) => candidate.name === remote);
  if (!entry) return [`  site:        ${remote} is not one of the site's remotes`];
  const failures = entry.failures ?? {};
  const views = failures.views ?? {};
  const failed = (version) => (failures.browserVersions?.[version] ?? 0) + (failures.serverVersions?.[version] ?? 0);
  const canary = entry.canary ?? null;
  const stableVersion = canary?.stable?.version ?? entry.buildVersion;
  const canaryVersion = canary?.canary?.version;
  const role = (version) => (version === canaryVersion ? 'canary' : version === stableVersion ? 'stable' : 'other ');
  const versions = new Set([...Object.keys(views), ...Object.keys(failures.browserVersions ?? {}), ...Object.keys(failures.serverVersions ?? {})]);
  for (const version of [stableVersion, canaryVersion]) if (version) versions.add(version);
  const minutes = Math.round((health.failureWindowSeconds ?? 900) / 60);
  const lines = [`  site:        last ${minutes} minutes, per build (server live: ${entry.buildVersion ?? 'unknown'})`];
  const order = (version) => ({ stable: 0, canary: 1 })[role(version).trim()] ?? 2;
  for (const version of [...versions].sort((a, b) => order(a) - order(b) || a.localeCompare(b))) {
    const seen = views[version] ?? 0;
    const rate = seen > 0 ? percent(Math.min(failed(version), seen) / seen) : 'no views';
    lines.push(`    ${role(version)} ${version}  views ${seen}  failures ${failed(version)}  (${rate})`);
  }
  if (canary?.state === 'running') {
    lines.push(`  canary:      running for ${+(canary.share * 100).toFixed(2)} % of visitors since ${canary.startedAt}${canary.verdict ? `; the rule: ${canary.verdict}` : ''}`);
  }
  if (canary?.ended) lines.push(`  canary:      ${canary.ended.version} ${canary.ended.outcome} at ${canary.ended.at}: ${canary.ended.reason}`);
  return lines;
}
