// Standalone page of the remote: the team develops and demos its islands without the shell,
// against a locally started search server (`?server=http://127.0.0.1:8108&key=<search key>`).
import { examplePageConfig, getPageBus, type IslandContext, type PageConfig } from 'contracts';
import mountHeaderSearch from '../islands/HeaderSearch.js';
import mountSearchList from '../islands/SearchList.js';

function configFromAddress(): PageConfig {
  const config = examplePageConfig();
  const params = new URLSearchParams(window.location.search);
  const server = params.get('server');
  if (server) {
    const url = new URL(server);
    config.search.server.host = url.hostname;
    config.search.server.port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    config.search.server.protocol = url.protocol === 'https:' ? 'https' : 'http';
  }
  config.search.server.apiKey = params.get('key') ?? config.search.server.apiKey;
  config.calls.searchPage = window.location.pathname;
  return config;
}

const context: IslandContext = {
  bus: getPageBus(),
  config: configFromAddress(),
  getConsent: () => ({ insights: false, tracking: false }),
};

const byId = (id: string) => document.getElementById(id) as HTMLElement;
for (const [mount, id] of [
  [mountHeaderSearch, 'header-search'],
  [mountSearchList, 'search-list'],
] as const) {
  try {
    mount(byId(id), {}, context);
  } catch (error) {
    console.error(`[mf-search standalone] #${id} kept its fallback`, error);
  }
}
