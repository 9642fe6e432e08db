// Side-effect CSS imports are bundled by rspack (experiments.css).
declare module '*.css';
