import type { PageConfig } from 'contracts';
import { Layout } from './Layout.js';
import { renderPage } from './renderPage.js';

/** Body of the page answering a request the server could not take (a malformed address, one too long). */
export function RequestErrorPage({ status }: { status: number }) {
  return (
    <section className="not-found">
      <h1>{status === 414 ? 'This address is too long' : 'This address could not be read'}</h1>
      <p>
        Please check the address you followed. <a href="/">Back to the latest articles</a>.
      </p>
    </section>
  );
}

/** The whole page (site layout) for a request refused with `status` before any route ran. */
export function renderRequestErrorPage(status: number, config: PageConfig, runtimeUrl: string): string {
  return renderPage(
    <Layout title="Address not readable" config={config} runtimeUrl={runtimeUrl}>
      <RequestErrorPage status={status} />
    </Layout>,
  );
}
