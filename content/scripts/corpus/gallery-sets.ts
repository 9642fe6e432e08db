import type { GalleryImage } from '../../src/article.js';
import type { GallerySetName } from './article-specs.js';

/** Gallery images by set; the files are drawn by `render-images.ts` under the same names. */
export const GALLERY_SETS: Record<GallerySetName, GalleryImage[]> = {
  workshop: [
    { src: '/content-images/gallery-workshop-board.svg', alt: 'Sticky notes grouped on a workshop board', caption: 'Ideas clustered on the board during a team workshop.' },
    { src: '/content-images/gallery-workshop-circle.svg', alt: 'Participants sitting in a circle', caption: 'A check-in round opens the session.' },
    { src: '/content-images/gallery-workshop-dots.svg', alt: 'Dot voting on printed proposals', caption: 'Dot voting helps the group choose what to try first.' },
  ],
  'team-meeting': [
    { src: '/content-images/gallery-team-table.svg', alt: 'A team gathered around a meeting table', caption: 'Short, focused team meetings keep everyone aligned.' },
    { src: '/content-images/gallery-team-standup.svg', alt: 'Colleagues standing in front of a task board', caption: 'The daily stand-up in front of the task board.' },
  ],
  'remote-desk': [
    { src: '/content-images/gallery-remote-desk.svg', alt: 'A tidy home office desk with laptop and external screen', caption: 'Screen at eye level, laptop on a stand, daylight from the side.' },
    { src: '/content-images/gallery-remote-call.svg', alt: 'A video call grid with six participants', caption: 'Cameras on for the weekly team check-in.' },
  ],
  'presentation-stage': [
    { src: '/content-images/gallery-stage-speaker.svg', alt: 'A speaker on a small stage in front of a slide', caption: 'One message per slide keeps the audience with the speaker.' },
    { src: '/content-images/gallery-stage-audience.svg', alt: 'Audience members raising hands for questions', caption: 'Questions at the end are a chance to build credibility.' },
  ],
  'coffee-talk': [
    { src: '/content-images/gallery-coffee-cups.svg', alt: 'Two coffee cups on a café table', caption: 'Café-Gespräche: where much of the real exchange happens.' },
    { src: '/content-images/gallery-coffee-walk.svg', alt: 'Two colleagues talking during a walk', caption: 'A walking one-to-one often feels more open than a meeting room.' },
  ],
};
