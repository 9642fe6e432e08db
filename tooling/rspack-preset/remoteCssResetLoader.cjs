// Browser builds: writes the shared remote CSS reset where a stylesheet asks for it
// (`@khs-remote-reset …;`, see remoteCssReset.mjs).
module.exports = function remoteCssResetLoader(source) {
  const callback = this.async();
  import('./remoteCssReset.mjs').then(
    ({ expandRemoteCssReset }) => {
      try {
        callback(null, expandRemoteCssReset(source, this.resourcePath));
      } catch (error) {
        callback(error);
      }
    },
    (error) => callback(error),
  );
};
