// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceVideo } from './enhanceVideo.js';

const markup = `<figure data-widget="video"><video controls poster="/poster.svg"><p>fallback</p></video>
  <button type="button" data-video-play hidden>Play video</button>
  <figcaption>Title<span data-video-fallback hidden>Cannot play.</span></figcaption></figure>`;

describe('video play button', () => {
  it('shows the poster with a play button that starts the video', () => {
    const root = render(markup);
    const video = root.querySelector('video')!;
    const play = vi.spyOn(video, 'play').mockResolvedValue(undefined);
    enhanceVideo(root, testEnv());
    const button = root.querySelector<HTMLButtonElement>('[data-video-play]')!;
    expect(video.controls).toBe(false);
    expect(button.hidden).toBe(false);
    button.click();
    expect(play).toHaveBeenCalledTimes(1);
    expect(button.hidden).toBe(true);
    expect(video.controls).toBe(true);
  });

  it('shows the fallback text when the browser cannot play it', async () => {
    const root = render(markup);
    const video = root.querySelector('video')!;
    vi.spyOn(video, 'play').mockRejectedValue(new DOMException('no source', 'NotSupportedError'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    enhanceVideo(root, testEnv());
    root.querySelector<HTMLButtonElement>('[data-video-play]')!.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(root.querySelector<HTMLElement>('[data-video-fallback]')!.hidden).toBe(false);
  });

  it('cleanup gives the native controls back', () => {
    const root = render(markup);
    const cleanup = enhanceVideo(root, testEnv());
    vi.spyOn(root.querySelector('video')!, 'pause').mockImplementation(() => {});
    cleanup();
    expect(root.querySelector('video')!.hasAttribute('controls')).toBe(true);
    expect(root.querySelector<HTMLElement>('[data-video-play]')!.hidden).toBe(true);
  });
});
