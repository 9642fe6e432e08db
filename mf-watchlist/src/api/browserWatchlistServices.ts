import { saveBlobAsFile } from './saveBlobAsFile.js';
import type { WatchlistServices } from './watchlistServices.js';

/** The real browser services: `fetch`, download link, async clipboard, console. */
export function browserWatchlistServices(): WatchlistServices {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    saveFile: (blob, fileName) => saveBlobAsFile(blob, fileName),
    writeClipboard: async (text) => {
      if (!globalThis.navigator?.clipboard) throw new Error('The clipboard is not available');
      await globalThis.navigator.clipboard.writeText(text);
    },
    logger: console,
  };
}
