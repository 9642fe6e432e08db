import sharp from 'sharp';

/** Sizes packed into `/favicon.ico`: what browsers and OS shortcuts ask for. */
export const FAVICON_ICO_SIZES = [16, 32, 48] as const;

/**
 * Packs PNG images into one ICO file (PNG-compressed entries, allowed since Windows Vista and read
 * by every browser): a 6-byte header, a 16-byte directory entry per image, then the PNGs.
 */
export function packIco(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // 0 stands for 256
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}

/** Renders an SVG at a square size as PNG, transparent around it when it is not square. */
export async function svgToPng(svg: Buffer | string, width: number, height = width): Promise<Buffer> {
  const input = typeof svg === 'string' ? Buffer.from(svg) : svg;
  const { width: naturalWidth } = await sharp(input).metadata();
  const density = svgDensity(naturalWidth, width);
  return sharp(input, { density })
    .resize(width, height, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The density (dpi) at which an SVG `naturalWidth` px wide (at 72 dpi) is drawn `width` px wide. */
function svgDensity(naturalWidth: number | undefined, width: number): number {
  return naturalWidth ? Math.min(2400, Math.max(1, Math.ceil((72 * width) / naturalWidth))) : 72;
}

/**
 * A rendition of an image file (raster images resized; an SVG rasterised at the density that
 * draws it at about the target size, not larger: a 1280 px SVG at 300 dpi would be 16 Mpixels to
 * rasterise for a 1200 px card) at `width`×`height`, as PNG or WebP.
 */
export async function renderRendition(input: Buffer, width: number, height: number, format: 'png' | 'webp'): Promise<Buffer> {
  const { format: inputFormat, width: naturalWidth } = await sharp(input).metadata();
  const density = inputFormat === 'svg' ? svgDensity(naturalWidth, width) : 72;
  const resized = sharp(input, { density }).resize(width, height, { fit: 'cover' });
  return format === 'png' ? resized.png({ compressionLevel: 9 }).toBuffer() : resized.webp({ quality: 80 }).toBuffer();
}

/** The site's `/favicon.ico`, generated from its favicon SVG ({@link FAVICON_ICO_SIZES}). */
export async function faviconIcoFromSvg(svg: Buffer | string): Promise<Buffer> {
  const images = await Promise.all(FAVICON_ICO_SIZES.map(async (size) => ({ size, png: await svgToPng(svg, size) })));
  return packIco(images);
}
