import type { Article } from '../content/contentStore.js';
import { ArticleTeaser } from './ArticleTeaser.js';

export interface HomePageProps {
  /** Latest articles, newest first. */
  articles: Article[];
}

/** Home: the latest competence articles as teasers. */
export function HomePage({ articles }: HomePageProps) {
  return (
    <section className="home" aria-labelledby="home-title">
      <h1 id="home-title">Latest competence articles</h1>
      <div className="teaser-grid">
        {articles.map((article) => (
          <ArticleTeaser key={article.id} article={article} />
        ))}
      </div>
    </section>
  );
}
