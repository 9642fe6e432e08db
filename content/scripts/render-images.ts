/**
 * Draws the locally served SVG images into `images/`: one banner per topic (`topic-<slug>.svg`),
 * the gallery pictures referenced by `corpus/gallery-sets.ts`, and a neutral `default.svg`.
 * Deterministic and dependency-free. Run: `npm run build:images -w @khs/content`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentImagesDir } from '../src/content-paths.js';
import { createRandom } from '../src/prng.js';
import { TOPICS, topicSlug } from '../src/topics.js';
import { hashString } from './corpus/compose-article.js';
import { GALLERY_SETS } from './corpus/gallery-sets.js';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A gradient banner with a few soft circles and a centred title. */
function renderBanner(options: { title: string; subtitle: string; width: number; height: number; seedText: string }): string {
  const { title, subtitle, width, height, seedText } = options;
  const random = createRandom(hashString(seedText));
  const hue = random.int(360);
  // A neighbouring second hue keeps the gradient calm (no red-to-green banners).
  const hue2 = (hue + 20 + random.int(35)) % 360;
  const circles = Array.from({ length: 5 }, () => {
    const r = Math.round(height * (0.12 + random.next() * 0.35));
    const cx = random.int(width);
    const cy = random.int(height);
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#fff" fill-opacity="${(0.06 + random.next() * 0.1).toFixed(2)}"/>`;
  }).join('');
  // Long titles (gallery alt texts) shrink so they fit the width at roughly 0.55em per character.
  const titleSize = Math.round(Math.min(height / 9, (width * 0.9) / (title.length * 0.55)));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,42%)"/><stop offset="1" stop-color="hsl(${hue2},60%,30%)"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>${circles}
<text x="50%" y="50%" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="${titleSize}" font-weight="700" fill="#fff">${escapeXml(title)}</text>
<text x="50%" y="${Math.round(height / 2 + titleSize * 0.6 + height / 18)}" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="${Math.round(height / 24)}" fill="#fff" fill-opacity="0.85">${escapeXml(subtitle)}</text>
</svg>
`;
}

mkdirSync(contentImagesDir, { recursive: true });
let written = 0;
const write = (file: string, svg: string): void => {
  writeFileSync(join(contentImagesDir, file), svg);
  written++;
};

for (const topic of TOPICS) {
  write(`topic-${topicSlug(topic)}.svg`, renderBanner({ title: topic, subtitle: 'KHS Competence', width: 1280, height: 720, seedText: topic }));
}
for (const images of Object.values(GALLERY_SETS)) {
  for (const image of images) {
    const file = image.src.split('/').pop() as string;
    write(file, renderBanner({ title: image.alt, subtitle: 'KHS Competence gallery', width: 960, height: 540, seedText: file }));
  }
}
write('default.svg', renderBanner({ title: 'KHS Competence', subtitle: 'Articles for professional development', width: 1280, height: 720, seedText: 'default' }));
console.log(`wrote ${written} images to ${contentImagesDir}`);
