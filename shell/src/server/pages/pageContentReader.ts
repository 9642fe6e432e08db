import type { IslandContentReader } from 'contracts';
import type { ContentStore } from '../content/contentStore.js';
import type { ImageCatalogue } from '../seo/imageCatalogue.js';
import { knownPageImageOf } from './pageImage.js';

/**
 * What a public page's islands may read of the site's content (`IslandServerContext.content`):
 * the public articles of the shell's one content store, and each content image as the site serves
 * it (content-hashed URL, intrinsic size, `srcset`). An island reads what it needs beyond its
 * props through it (`IslandServerModule.serverProps`); the shell computes nothing for it.
 */
export function pageContentReader(content: ContentStore, images: ImageCatalogue): IslandContentReader {
  return { article: (id) => content.getArticle(id), image: knownPageImageOf(images) };
}

/** The reader of an editor's preview page: the previewed article (a draft, a scheduled one) too. */
export function previewContentReader(reader: IslandContentReader, previewed: { id: string }): IslandContentReader {
  return { ...reader, article: (id) => (id === previewed.id ? (previewed as ReturnType<IslandContentReader['article']>) : reader.article(id)) };
}
