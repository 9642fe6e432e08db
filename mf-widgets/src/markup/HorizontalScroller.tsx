import type { ReactNode } from 'react';
import { ScrollControls } from './ScrollControls.js';

export interface HorizontalScrollerProps {
  /** Name of the row (heading and region label). */
  title: string;
  items: { key: string; content: ReactNode }[];
}

/** A row of items that scrolls natively; mf-widgets adds previous/next buttons. */
export function HorizontalScroller({ title, items }: HorizontalScrollerProps) {
  return (
    <section className="khs-widgets-block khs-widgets-h-scroll" data-widget="h-scroll" aria-label={title}>
      <div className="khs-widgets-h-scroll__head">
        <h2 className="khs-widgets-block__title">{title}</h2>
        <ScrollControls previousLabel={`Scroll ${title} left`} nextLabel={`Scroll ${title} right`} />
      </div>
      <div className="khs-widgets-h-scroll__viewport" data-scroll-viewport="" tabIndex={0} role="region" aria-label={`${title} (scrolls sideways)`}>
        <ul className="khs-widgets-h-scroll__list">
          {items.map((item) => (
            <li key={item.key} className="khs-widgets-h-scroll__item">
              {item.content}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
