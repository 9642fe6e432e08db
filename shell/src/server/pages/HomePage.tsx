import type { Article } from '../content/contentStore.js';
import { ArticleTeaser } from './ArticleTeaser.js';
import type { PageImage } from './pageImage.js';

export interface HomePageProps {
  /** Latest articles, newest first. */
  articles: Article[];
  /** Resolves an article's image URL for its teaser. Default: the teaser's own default. */
  imageOf?: (contentUrl: string) => PageImage;
}

/** Home: the latest competence articles as teasers. */
export function HomePage({ articles, imageOf }: HomePageProps) {
  return (
    <section className="home" aria-labelledby="home-title">
      <h1 id="home-title">Latest competence articles</h1>
      <div className="teaser-grid">
        {articles.map((article) => (
          <ArticleTeaser key={article.id} article={article} {...(imageOf ? { image: imageOf(article.image) } : {})} />
        ))}
      </div>
    </section>
  );
}
