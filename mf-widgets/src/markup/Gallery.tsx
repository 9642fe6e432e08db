import { SliderControls } from './SliderControls.js';

/**
 * A picture of the gallery (`@khs/content`'s GalleryImage; the shell adds what its image
 * catalogue knows: the content-hashed `src`, the intrinsic size and, for raster images, `srcset`).
 */
export interface GalleryPicture {
  src: string;
  alt: string;
  caption: string;
  /** Intrinsic size of this picture. Default: the gallery's `width` × `height`. */
  width?: number;
  height?: number;
  /** Its renditions by width (`480w`…). Default: none (one file for every size). */
  srcset?: string;
}

/** `sizes` of a gallery picture: one slide fills the article column (48rem less its padding). */
export const GALLERY_IMAGE_SIZES = '(min-width: 50rem) 45rem, calc(100vw - 5rem)';

export interface GalleryProps {
  title: string;
  pictures: GalleryPicture[];
  /** Intrinsic size of the pictures, reserved before they load. Default 1280 x 720. */
  width?: number;
  height?: number;
}

/**
 * Image gallery markup for mf-widgets: a list of figures with captions, each picture linked to
 * its full-size file. The widget makes it a slider and opens the links in its lightbox.
 */
export function Gallery({ title, pictures, width = 1280, height = 720 }: GalleryProps) {
  if (pictures.length === 0) return null;
  return (
    <section className="khs-widgets-block khs-widgets-gallery" data-widget="gallery" aria-label={title} aria-roledescription="carousel">
      <h2 className="khs-widgets-block__title">{title}</h2>
      <div className="khs-widgets-slider__viewport" data-slider-viewport="">
        <ul className="khs-widgets-slider__track" data-slider-track="">
          {pictures.map((picture) => (
            <li key={picture.src} className="khs-widgets-slider__slide" data-slider-slide="">
              <figure className="khs-widgets-gallery__figure">
                <a href={picture.src} className="khs-widgets-gallery__link" data-lightbox-item="">
                  <img
                    src={picture.src}
                    {...(picture.srcset ? { srcSet: picture.srcset, sizes: GALLERY_IMAGE_SIZES } : {})}
                    alt={picture.alt}
                    width={picture.width ?? width}
                    height={picture.height ?? height}
                    loading="lazy"
                    decoding="async"
                  />
                </a>
                <figcaption className="khs-widgets-gallery__caption">{picture.caption}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
      <SliderControls previousLabel="Previous image" nextLabel="Next image" />
    </section>
  );
}
