// Standalone page of the remote: the team develops and demos its islands without the shell.
import { examplePageConfig, getPageBus, type IslandContext } from 'contracts';
import mountButton from '../islands/WatchlistButton.js';
import mountLink from '../islands/WatchlistLink.js';
import mountScreen from '../islands/WatchlistScreen.js';

const context: IslandContext = {
  bus: getPageBus(),
  config: examplePageConfig(),
  getConsent: () => ({ insights: false, tracking: false }),
};

const byId = (id: string) => document.getElementById(id) as HTMLElement;
mountLink(byId('watchlist-link'), {}, context);
mountButton(byId('watchlist-button-1'), { id: 'feedback-that-lands', title: 'Giving feedback that lands' }, context);
mountButton(byId('watchlist-button-2'), { id: 'negotiating-with-confidence', title: 'Negotiating with confidence' }, context);
// Design mode: without the shell's server the screen logs the failed load and shows dummy data.
mountScreen(byId('watchlist-screen'), { designMode: true }, context);
