// Standalone page of the remote: the team demos every widget without the shell.
import { examplePageConfig, getPageBus, type IslandContext } from 'contracts';
import mount from '../islands/PageWidgets.js';
import './standalone.css';

const bus = getPageBus();
const context: IslandContext = {
  bus,
  config: examplePageConfig(),
  getConsent: () => ({ insights: false, tracking: false }),
};

// The shell opens its consent panel on this event; here a line in the log shows it arrived.
const log = document.getElementById('event-log');
bus.on('consent-panel-requested', ({ source }) => {
  if (log) log.textContent = `consent-panel-requested from ${source}`;
});

const island = document.getElementById('page-widgets') as HTMLElement;
mount(island, {}, context);

// Widgets added later are enhanced too: this button appends a fresh tabs block.
document.getElementById('add-widget')?.addEventListener('click', () => {
  const template = document.getElementById('late-widget') as HTMLTemplateElement;
  document.getElementById('late-widgets')?.append(template.content.cloneNode(true));
});
