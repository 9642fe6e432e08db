// The CSS reset every remote's stylesheet starts its `reset` layer with, written once. A remote's
// stylesheet asks for it inside its own reset layer with
//   @khs-remote-reset 'khs-search-' (.khs-search-header, .khs-search-list);
// (its class prefix as its `[class*=…]` tests use it, then its top elements), and the preset's CSS
// loader (`remoteCssResetLoader.cjs`) writes the rules there at build time. The style check
// (`scripts/check-remote-styles.mjs`) expands it the same way before it checks the sheet.

/** The at-rule a remote's stylesheet uses to ask for the reset. */
export const REMOTE_CSS_RESET_AT_RULE = 'khs-remote-reset';

const DIRECTIVE = new RegExp(`@${REMOTE_CSS_RESET_AT_RULE}\\s+([^;]*);`, 'g');
const PARAMS = /^'(khs-[a-z][a-z-]*)'\s*\(([^()]+)\)$/;

/**
 * The reset rules for a remote whose classes all contain `classPrefix` and whose top elements (the
 * ones that must inherit nothing from the page) match `roots`. Every selector is wrapped in
 * `:where()` (no specificity): the remote's components win over it by layer order alone.
 * @param {{ classPrefix: string, roots: string }} options
 * @returns {string}
 */
export function remoteCssReset({ classPrefix, roots }) {
  const own = `[class*='${classPrefix}']`;
  return `/* ${REMOTE_CSS_RESET_AT_RULE}: tooling/rspack-preset/remoteCssReset.mjs */
:where(${own}, ${own} *):where(:not(svg):not(svg *):not(img):not(video)) { all: revert; }
/* Chromium maps the \`hidden\` attribute as a presentational hint, which \`all: revert\` drops too. */
:where(${own} [hidden], [hidden]${own}) { display: none !important; }
/* Images and SVG keep their size and fill/stroke attributes (\`all: revert\` would drop those
   presentational hints too), so everything else is reset property by property. */
:where(${own} :is(img, video, svg, svg *), :is(img, video, svg)${own}) {
  color: revert; font: revert; letter-spacing: revert; word-spacing: revert; text-transform: revert; text-decoration: revert;
  text-align: revert; text-indent: revert; white-space: revert; list-style: revert; cursor: revert; visibility: revert;
  vertical-align: revert; outline: revert; margin: revert; padding: revert; border: revert; border-radius: revert;
  background: revert; box-shadow: revert; opacity: revert; filter: revert; transform: revert; display: revert;
  max-width: revert; max-height: revert; min-width: revert; min-height: revert; object-fit: revert; object-position: revert;
  position: revert; inset: revert; float: revert; z-index: revert; clip-path: revert; mix-blend-mode: revert;
  transition: revert; animation: revert; pointer-events: revert; overflow: revert;
}
/* The top elements inherit nothing from the page (letter-spacing, text-align, font-style...):
   they start from initial values and set the text basics from the design tokens. */
:where(${roots}) {
  all: initial; display: revert; text-decoration: revert;
  color: var(--ink, #1b1f24); font-family: var(--font-family, system-ui, sans-serif); font-size: 1rem; line-height: 1.55;
}
:where(${own}, ${own} *) { box-sizing: border-box; }
:where(${own}, ${own} *):focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
:where(${own} button, button${own}) {
  font: inherit; padding: 0.5rem 0.9rem; border-radius: var(--radius, 8px); border: 1px solid var(--accent, #0b5cad);
  background: var(--accent, #0b5cad); color: var(--accent-ink, #fff); cursor: pointer;
}
`;
}

/**
 * `css` with each `@khs-remote-reset '<class prefix>' (<top elements>);` replaced by the reset.
 * Throws, naming `file`, on a directive it cannot read (a build must not ship a remote unreset).
 * @param {string} css
 * @param {string} [file] named in the error
 * @returns {string}
 */
export function expandRemoteCssReset(css, file = 'stylesheet') {
  return css.replace(DIRECTIVE, (directive, params) => {
    const match = PARAMS.exec(params.trim());
    if (!match) {
      throw new Error(`${file}: "${directive}" must read @${REMOTE_CSS_RESET_AT_RULE} 'khs-<prefix>' (<top element selectors>);`);
    }
    return remoteCssReset({ classPrefix: match[1], roots: match[2].trim() });
  });
}
