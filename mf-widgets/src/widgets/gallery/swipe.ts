/**
 * Share of a picture's width a swipe must cover to change picture in the gallery and its
 * lightbox. A design choice of this remote (the specification names a split ratio only for
 * the competence slider).
 */
export const GALLERY_SWIPE_RATIO = 0.15;
