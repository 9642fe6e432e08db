// Server-rendered markup only: nothing to mount in the browser (see serverRenderedMarkup).
export { default } from './serverRenderedMarkup.js';
