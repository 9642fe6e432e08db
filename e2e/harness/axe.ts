import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);

/**
 * Below this contrast ratio an axe `color-contrast` "incomplete" result counts as a failure.
 * axe leaves a node "incomplete" when it cannot be sure of the background (overlapping elements,
 * pseudo-elements, partially hidden text...); we then measure it ourselves, and a ratio below
 * 3:1 (the WCAG minimum for large text and UI components) is unreadable whatever axe's doubt.
 */
export const INCOMPLETE_CONTRAST_MIN_RATIO = 3;

/** An axe `color-contrast` "incomplete" node measured in the page. */
export interface MeasuredContrast {
  /** axe's target of the node (CSS selector). */
  target: string;
  /** Foreground-to-background ratio, or undefined when the background is an image/gradient. */
  ratio: number | undefined;
  /** Text colour and effective background, as `#rrggbb`. */
  foreground: string;
  background: string | undefined;
}

/**
 * axe-core problems of the page, as `rule: targets` lines: every violation, plus every
 * `color-contrast` "incomplete" node whose measured contrast is below
 * {@link INCOMPLETE_CONTRAST_MIN_RATIO} (as `color-contrast-incomplete: target (ratio, colours)`).
 * The page's context must use `bypassCSP: true`: axe is injected as an inline script, which the
 * site's CSP (rightly) refuses.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const { violations, incompleteContrast } = await page.evaluate(async () => {
    type AxeNode = { target: unknown };
    type AxeResult = { violations: { id: string; nodes: AxeNode[] }[]; incomplete: { id: string; nodes: AxeNode[] }[] };
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResult> } }).axe;
    const result = await axe.run(document);
    return {
      violations: result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`),
      incompleteContrast: result.incomplete
        .filter((entry) => entry.id === 'color-contrast')
        .flatMap((entry) => entry.nodes.map((node) => node.target))
        // Nodes inside iframes or shadow roots have nested targets; the site has none of either.
        .filter((target): target is [string] => Array.isArray(target) && target.length === 1 && typeof target[0] === 'string')
        .map(([selector]) => selector),
    };
  });
  const measured = await measureContrast(page, incompleteContrast);
  const lowContrast = measured
    .filter((node) => node.ratio !== undefined && node.ratio < INCOMPLETE_CONTRAST_MIN_RATIO)
    .map((node) => `color-contrast-incomplete: ${JSON.stringify([node.target])} (${node.ratio!.toFixed(2)}:1, ${node.foreground} on ${node.background})`);
  return [...violations, ...lowContrast];
}

/**
 * Contrast of each element (by CSS selector) as the visitor sees it: its computed text colour
 * over the background actually painted behind its centre, found with `elementsFromPoint` and
 * composited bottom-up (translucent layers blend; the canvas is white). A background image,
 * gradient or replaced element behind the text makes the ratio unknown (undefined).
 */
export async function measureContrast(page: Page, selectors: string[]): Promise<MeasuredContrast[]> {
  return page.evaluate((targets) => {
    type Rgba = [number, number, number, number];
    const probe = document.createElement('canvas').getContext('2d')!;
    const parse = (value: string): Rgba => {
      const match = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(value);
      if (match) return [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])];
      // Other colour syntaxes (color(), oklch()...): let the canvas convert them.
      probe.clearRect(0, 0, 1, 1);
      probe.fillStyle = value;
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const alpha = top[3] + bottom[3] * (1 - top[3]);
      if (alpha === 0) return [0, 0, 0, 0];
      const mix = (index: 0 | 1 | 2) => (top[index] * top[3] + bottom[index] * bottom[3] * (1 - top[3])) / alpha;
      return [mix(0), mix(1), mix(2), alpha];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const hex = ([r, g, b]: Rgba) => `#${[r, g, b].map((value) => Math.round(value).toString(16).padStart(2, '0')).join('')}`;

    return targets.flatMap((target) => {
      const element = document.querySelector(target);
      if (!(element instanceof HTMLElement)) return [];
      element.scrollIntoView({ block: 'center', inline: 'center' });
      const rect = element.getBoundingClientRect();
      const stack = document.elementsFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      // What lies under the element (the element itself and everything painted below it).
      const below = stack.includes(element) ? stack.slice(stack.indexOf(element)) : stack;
      let background: Rgba = [255, 255, 255, 1];
      let unknown = false;
      for (const layer of [...below].reverse()) {
        const style = getComputedStyle(layer);
        if (style.backgroundImage !== 'none' || /^(IMG|VIDEO|CANVAS|svg|PICTURE|IFRAME)$/.test(layer.tagName)) {
          unknown = true;
          continue;
        }
        background = over(parse(style.backgroundColor), background);
        // An opaque layer hides whatever image was below it.
        if (background[3] === 1 && parse(style.backgroundColor)[3] === 1) unknown = false;
      }
      const foreground = over(parse(getComputedStyle(element).color), background);
      const [lighter, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
      return [
        {
          target,
          ratio: unknown ? undefined : (lighter + 0.05) / (darker + 0.05),
          foreground: hex(foreground),
          background: unknown ? undefined : hex(background),
        },
      ];
    });
  }, selectors);
}
