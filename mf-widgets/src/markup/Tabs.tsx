import type { ReactNode } from 'react';

/** One tab: its label (rendered as the panel's heading) and content. */
export interface TabItem {
  /** Stable id of the panel, unique on the page. */
  id: string;
  label: string;
  content: ReactNode;
}

export interface TabsProps {
  /** Accessible name of the tab list (also shown as the block's heading). */
  title: string;
  items: TabItem[];
  /** Heading level of each panel's label before enhancement. Default 3. */
  headingLevel?: 3 | 4;
}

/**
 * Tabs markup for mf-widgets: every panel is rendered with its heading, so the block reads as
 * sections without script; the widget turns the headings into a WAI-ARIA tab list.
 */
export function Tabs({ title, items, headingLevel = 3 }: TabsProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const titleId = `${items[0]?.id ?? 'tabs'}-title`;
  return (
    <section className="khs-widgets-block" aria-labelledby={titleId}>
      <h2 id={titleId} className="khs-widgets-block__title">
        {title}
      </h2>
      <div className="khs-widgets-tabs" data-widget="tabs" data-tabs-name={title}>
        {items.map((item) => (
          <section key={item.id} id={item.id} className="khs-widgets-tabs__panel" data-tabs-panel="">
            <Heading className="khs-widgets-tabs__heading" data-tabs-label="">
              {item.label}
            </Heading>
            {item.content}
          </section>
        ))}
      </div>
    </section>
  );
}
