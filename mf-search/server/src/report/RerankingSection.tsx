import type { LearnedReranking, RerankOutcome } from '../reranking/rerankLearner.js';
import { RERANK_CANDIDATES, RERANK_POSITIONS } from '../reranking/rerankLearner.js';
import { rerankSwitchSignature, type RerankSwitchAction } from './rerankSwitch.js';

/** The report's range (the switch keeps it): first and last day, both included. */
interface ReportDays {
  from: string;
  to: string;
}

/** What the report shows of the learned re-ranking. */
export interface RerankingView {
  /** The last learn (undefined before the first). */
  outcome: RerankOutcome | undefined;
  /** Queries switched off by editors, with when (ms). */
  switchedOff: Map<string, number>;
  /** Distinct visitors a result needs before it moves. */
  minVisitors: number;
  /** How often it learns (ms). */
  refreshMs: number;
  /** The switch just applied, if any (shown as a status). */
  switched?: { action: RerankSwitchAction; query: string } | undefined;
  /** A switch refused, if any (shown as an alert). */
  refusal?: string | undefined;
}

const seconds = (ms: number) => Math.round(ms / 1000);

/** A GET form that switches one query off or on (signed with the editor's token, keeping the report's range). */
function SwitchForm({ action, query, days, editorToken }: { action: RerankSwitchAction; query: string; days: ReportDays; editorToken: string }) {
  return (
    <form method="get" className="search-report__switch">
      <input type="hidden" name="from" value={days.from} />
      <input type="hidden" name="to" value={days.to} />
      <input type="hidden" name="rerank" value={action} />
      <input type="hidden" name="query" value={query} />
      <input type="hidden" name="sig" value={rerankSwitchSignature(editorToken, action, query)} />
      <button type="submit">
        {action === 'off' ? 'Switch off' : 'Switch on'}
        <span className="search-report__hidden"> re-ranking for “{query}”</span>
      </button>
    </form>
  );
}

function Lifted({ reranking }: { reranking: LearnedReranking }) {
  return (
    <ul className="search-report__lifted">
      {reranking.pins.map((pin) => (
        <li key={pin.id}>
          <code>{pin.id}</code>: {pin.from} → {pin.position} ({pin.visitors} visitors)
        </li>
      ))}
    </ul>
  );
}

/**
 * The queries whose top results are re-ordered by what visitors picked, with a switch per query
 * (off: the text order again at the next learn, which the switch starts at once; editors' own
 * curations win over learned ones anyway).
 */
export function RerankingSection({ view, days, editorToken }: { view: RerankingView | undefined; days: ReportDays; editorToken: string }) {
  if (!view) {
    return (
      <>
        <h2 id="search-report-reranking">Re-ranked queries</h2>
        <p>Re-ranking from visitors&apos; picks is off: it learns only with popularity on (<code>SEARCH_POPULARITY=on</code>).</p>
      </>
    );
  }
  const applied = view.outcome?.applied ?? [];
  const learnedOff = new Map((view.outcome?.switchedOff ?? []).map((reranking) => [reranking.query, reranking]));
  const offQueries = [...view.switchedOff.keys()].sort();
  return (
    <>
      <h2 id="search-report-reranking">Re-ranked queries</h2>
      <p>
        For these queries the results most visitors picked are lifted into the top {RERANK_POSITIONS}: a result moves once {view.minVisitors} distinct
        visitors clicked or saved it after searching the query, only from among its first {RERANK_CANDIDATES} results by text match. Learned every{' '}
        {seconds(view.refreshMs)} s from visitors who agreed to tracking and insights; your own curation rules win.
      </p>
      {view.switched ? (
        <p role="status" className="search-report__notice">
          Re-ranking for “{view.switched.query}” is {view.switched.action === 'off' ? 'off: the text order is back' : 'on again'} within {seconds(view.refreshMs)} s (at the next
          learn, started now).
        </p>
      ) : null}
      {view.refusal ? (
        <p role="alert" className="search-report__error">
          {view.refusal}
        </p>
      ) : null}
      {!view.outcome ? (
        <p>Nothing learned yet: the first learn runs within {seconds(view.refreshMs)} s of the service&apos;s start.</p>
      ) : applied.length === 0 ? (
        <p>No query is re-ranked now.</p>
      ) : (
        <table className="search-report__reranked" aria-labelledby="search-report-reranking">
          <thead>
            <tr>
              <th scope="col">Query</th>
              <th scope="col">Lifted results: position by text match → now</th>
              <th scope="col">Visitors who picked a result</th>
              <th scope="col">Re-ranking</th>
            </tr>
          </thead>
          <tbody>
            {applied.map((reranking) => (
              <tr key={reranking.query} data-query={reranking.query}>
                <th scope="row">{reranking.query}</th>
                <td>
                  <Lifted reranking={reranking} />
                </td>
                <td data-column="visitors">{reranking.visitors}</td>
                <td>
                  <SwitchForm action="off" query={reranking.query} days={days} editorToken={editorToken} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 id="search-report-reranking-off">Switched off by editors</h3>
      {offQueries.length === 0 ? (
        <p>None.</p>
      ) : (
        <table className="search-report__reranking-off" aria-labelledby="search-report-reranking-off">
          <thead>
            <tr>
              <th scope="col">Query</th>
              <th scope="col">Switched off (UTC)</th>
              <th scope="col">What it would lift</th>
              <th scope="col">Re-ranking</th>
            </tr>
          </thead>
          <tbody>
            {offQueries.map((query) => {
              const would = learnedOff.get(query);
              return (
                <tr key={query} data-query={query}>
                  <th scope="row">{query}</th>
                  <td>{new Date(view.switchedOff.get(query)!).toISOString().slice(0, 16).replace('T', ' ')}</td>
                  <td>{would ? <Lifted reranking={would} /> : 'nothing now'}</td>
                  <td>
                    <SwitchForm action="on" query={query} days={days} editorToken={editorToken} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </>
  );
}
