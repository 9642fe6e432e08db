// Server builds render markup only: a CSS import becomes an empty module there (the browser
// build ships the styles, and the shell links them from the manifest before any script runs).
module.exports = function ignoreCssLoader() {
  return 'export {};';
};
