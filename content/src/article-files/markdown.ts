import MarkdownIt from 'markdown-it';

/** An image written in an article body, with the body line it is on (1-based). */
export interface BodyImage {
  src: string;
  alt: string;
  line: number;
}

/** An article body rendered once: the page's HTML, the search index's plain text, its images. */
export interface RenderedBody {
  /** Safe HTML (raw HTML in the Markdown is shown as text, unsafe link schemes are dropped). */
  html: string;
  /** The words a reader sees, blocks separated by a blank line (for search and reading time). */
  text: string;
  images: BodyImage[];
}

// `html: false`: an editor's `<script>` or `<img onerror>` is escaped text, never markup. markdown-it's
// own link check drops `javascript:`, `vbscript:` and `data:` (except images) URLs. No linkify or
// typographer: the text stays exactly what the editor wrote.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

// The page's one <h1> is the headline, so a body's `#` heading becomes an <h2> (`##` and below stay as written).
markdown.core.ruler.push('khs_no_second_h1', (state) => {
  for (const token of state.tokens) {
    if ((token.type === 'heading_open' || token.type === 'heading_close') && token.tag === 'h1') token.tag = 'h2';
  }
});

/**
 * Renders an article body written in Markdown (CommonMark: headings, lists, links, emphasis, quotes,
 * images, code) to safe HTML and extracts its plain text and images.
 *
 * @param options.imageUrl the URL written into the HTML for an image's `src` as the editor wrote it
 *   (relative images become site URLs); undefined keeps it. Default: every `src` kept.
 *   {@link BodyImage.src} stays as written (problems quote the editor's text).
 */
export function renderArticleBody(source: string, options: { imageUrl?: (src: string) => string | undefined } = {}): RenderedBody {
  const tokens = markdown.parse(source, {});
  const blocks: string[] = [];
  const images: BodyImage[] = [];
  for (const token of tokens) {
    if (token.type !== 'inline') continue;
    let text = '';
    for (const child of token.children ?? []) {
      if (child.type === 'text' || child.type === 'code_inline') text += child.content;
      else if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n';
      else if (child.type === 'image') {
        const src = String(child.attrGet('src') ?? '');
        images.push({ src, alt: child.content, line: (token.map?.[0] ?? 0) + 1 });
        const url = options.imageUrl?.(src);
        if (url !== undefined) child.attrSet('src', url);
      }
    }
    if (text.trim() !== '') blocks.push(text);
  }
  for (const token of tokens) {
    if (token.type === 'code_block' || token.type === 'fence') blocks.push(token.content.trimEnd());
  }
  return { html: markdown.renderer.render(tokens, markdown.options, {}), text: blocks.join('\n\n'), images };
}

/**
 * Escapes plain text so Markdown reads it back as the same text (the one-off conversion of the seeded
 * paragraphs uses it).
 */
export function escapeMarkdownText(text: string): string {
  return text
    .replace(/([\\`*_[\]<>|])/g, '\\$1')
    .replace(/^(\s*)([#>+-])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
}
