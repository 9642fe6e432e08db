export interface VideoProps {
  title: string;
  /** Poster image shown before playing (a local image). */
  poster: string;
  /** Video file; when absent the fallback text explains what the video shows. */
  src?: string;
  /** MIME type of `src`. Default `video/webm`. */
  type?: string;
  /** What the video shows, for visitors who cannot play it. */
  description: string;
  width?: number;
  height?: number;
}

/**
 * Video markup for mf-widgets: a native `<video controls>` with poster (plays without script);
 * the widget shows a play button over the poster that starts it.
 */
export function Video({ title, poster, src, type = 'video/webm', description, width = 1280, height = 720 }: VideoProps) {
  return (
    <figure className="khs-widgets-block khs-widgets-video" data-widget="video">
      <video className="khs-widgets-video__media" controls preload="none" poster={poster} width={width} height={height} aria-label={title} playsInline>
        {src ? <source src={src} type={type} /> : null}
        <p>{description}</p>
      </video>
      <button type="button" className="khs-widgets-video__play" data-video-play="" hidden>
        <span className="khs-widgets-video__play-icon" aria-hidden="true">
          ▶
        </span>
        <span>Play video: {title}</span>
      </button>
      <figcaption className="khs-widgets-video__caption">
        {title}
        <span className="khs-widgets-video__fallback" data-video-fallback="" hidden>
          {' '}
          The video cannot be played here. {description}
        </span>
      </figcaption>
    </figure>
  );
}
