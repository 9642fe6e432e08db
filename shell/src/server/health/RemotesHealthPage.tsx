import { ISLAND_ERROR_CODES, type IslandErrorCode } from 'contracts';
import type { ReactNode } from 'react';
import type { BuildTraffic, RemoteHealth, RemotesHealth } from './remotesHealth.js';

/** Readable on its own: no site styles or scripts (the page is for operators, behind a token). */
const STYLES = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}
main{max-width:84rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:0 0 .25rem}
table{border-collapse:collapse;width:100%;margin:1rem 0}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #8a8a8a;padding:.4rem .6rem;text-align:left;vertical-align:top}
thead th{background:#ececec}
code{font-size:.9em;overflow-wrap:anywhere}
tbody th,abbr,.version{white-space:nowrap}
td ul{list-style:none;margin:0;padding:0}td p{margin:.5rem 0 0}
.ok{color:#0b5d1e;font-weight:600}.down{color:#a00000;font-weight:600}.unknown{color:#4a4a4a}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
`;

function when(iso: string | null): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—';
}

function Reachability({ remote }: { remote: RemoteHealth }) {
  if (remote.reachable === null) return <span className="unknown">not polled yet</span>;
  return remote.reachable ? (
    <span className="ok">reachable</span>
  ) : (
    <>
      <span className="down">unreachable</span>: {remote.lastPollError}
    </>
  );
}

function Failures({ counts }: { counts: Record<string, number | undefined> }) {
  const entries = Object.entries(counts).filter((entry): entry is [IslandErrorCode, number] => Boolean(entry[1]));
  if (entries.length === 0) return <>none</>;
  return (
    <ul>
      {entries.map(([code, count]) => (
        <li key={code}>
          <abbr title={ISLAND_ERROR_CODES[code]}>{code}</abbr>: {count}
        </li>
      ))}
    </ul>
  );
}

/** The HTML of `/health/remotes`: one row per remote, then what each failure code means. */
export function RemotesHealthPage({ health }: { health: RemotesHealth }) {
  const minutes = Math.round(health.failureWindowSeconds / 60);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Remotes · health</title>
        <style dangerouslySetInnerHTML={{ __html: STYLES }} />
      </head>
      <body>
        <main>
          <h1>Remotes</h1>
          <p>
            As of {when(health.generatedAt)}. Failures are counted over the last {minutes} minutes, from browsers (failure beacons) and
            from the server renders (of every shell instance when the counts are kept in PostgreSQL, else of this one).
            {health.serverIslands ? '' : ' Server islands are off (SERVER_ISLANDS=off): this server polls no manifests, so versions and reachability are unknown.'}
          </p>
          <table>
            <caption>Deployed remotes</caption>
            <thead>
              <tr>
                <th scope="col">Remote</th>
                <th scope="col">Manifest</th>
                <th scope="col">Last poll</th>
                <th scope="col">Build version</th>
                <th scope="col">Contracts version</th>
                <th scope="col">Live since</th>
                <th scope="col">Browser failures</th>
                <th scope="col">Server failures</th>
              </tr>
            </thead>
            <tbody>
              {health.remotes.map((remote) => (
                <RemoteRow key={remote.name} remote={remote} />
              ))}
            </tbody>
          </table>
          <Canaries remotes={health.remotes} />
          <FailureCodes />
          <p>
            For machines: <code>GET /health/remotes.json</code> (or <code>Accept: application/json</code>) with the same token.
          </p>
        </main>
      </body>
    </html>
  );
}

/** One deployed remote: its manifest, last poll, build, when it went live, its failures in the window. */
function RemoteRow({ remote }: { remote: RemoteHealth }) {
  return (
    <tr>
      <th scope="row">{remote.name}</th>
      <td>
        <code>{remote.manifestUrl}</code>
      </td>
      <td>
        <Reachability remote={remote} />
        <br />
        {when(remote.lastPollAt)}
      </td>
      <td className="version">{remote.buildVersion ? <code>{remote.buildVersion}</code> : '—'}</td>
      <td>{remote.contractsVersion ? <code>{remote.contractsVersion}</code> : 'not stated'}</td>
      <td>
        {remote.deployedAt ? `deployed ${when(remote.deployedAt)}; ` : ''}
        {remote.changedAt ? `seen by this server ${when(remote.changedAt)}` : '—'}
        {remote.buildChanges > 0 ? ` (build ${remote.buildChanges + 1} since it started)` : ''}
      </td>
      <td>
        <Failures counts={remote.failures.browser} />
        {Object.keys(remote.failures.browserVersions).length > 0 ? (
          <p>
            Reported by browsers running:{' '}
            {Object.entries(remote.failures.browserVersions)
              .map(([version, count]) => `${version} (${count})`)
              .join(', ')}
          </p>
        ) : null}
      </td>
      <td>
        <Failures counts={remote.failures.server} />
        {Object.keys(remote.failures.views).length > 0 ? (
          <p>
            Page views (browsers' reports) per build:{' '}
            {Object.entries(remote.failures.views)
              .map(([version, count]) => `${version} (${count})`)
              .join(', ')}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/** What each island failure code means. */
function FailureCodes() {
  return (
    <>
      <h2>Failure codes</h2>
      <dl>
        {Object.entries(ISLAND_ERROR_CODES).map(([code, meaning]) => (
          <div key={code} style={{ display: 'contents' }}>
            <dt>{code}</dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

const rate = (traffic: BuildTraffic) => (traffic.failureRate === null ? 'no views' : `${(traffic.failureRate * 100).toFixed(1)} %`);

/** Stable against canary per remote with a canary (running or last ended), and why it ended. */
function Canaries({ remotes }: { remotes: RemotesHealth['remotes'] }): ReactNode {
  const withCanary = remotes.filter((remote) => remote.canary);
  if (withCanary.length === 0) return null;
  return (
    <>
      <h2>Canaries</h2>
      <table>
        <caption>Stable against canary, failures per page view in the window</caption>
        <thead>
          <tr>
            <th scope="col">Remote</th>
            <th scope="col">State</th>
            <th scope="col">Stable build</th>
            <th scope="col">Canary build</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {withCanary.map(({ name, canary }) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>
                {canary!.state === 'running' ? `running for ${+(canary!.share * 100).toFixed(2)} % of visitors` : `ended: ${canary!.ended?.outcome ?? 'ended'}`}
                {canary!.startedAt ? ` (since ${when(canary!.startedAt)})` : ''}
              </td>
              {[canary!.stable, canary!.canary].map((side) => (
                <td key={side.version}>
                  <code>{side.version}</code>: {side.views} views, {side.failures} failures ({rate(side)})
                </td>
              ))}
              <td>{canary!.ended ? `${canary!.ended.reason} (${when(canary!.ended.at)})` : (canary!.verdict ?? 'not evaluated yet')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
