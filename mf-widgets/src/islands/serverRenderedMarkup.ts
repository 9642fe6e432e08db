import type { IslandMount } from 'contracts';

/**
 * Browser side of the markup islands (ArticleWidgets, ArticleContentsTrigger): their HTML comes
 * from the server render, and PageWidgets enhances it with every other widget of the page, so
 * there is nothing to mount.
 */
const mount: IslandMount = () => () => {};

export default mount;
