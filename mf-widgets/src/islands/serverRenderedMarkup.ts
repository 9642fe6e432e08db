import type { IslandMount } from 'contracts';

/**
 * Browser side of the markup islands (ArticleWidgets, ArticleContentsTrigger, FileField,
 * PasswordField, Dialog, DialogTrigger): their HTML comes
 * from the server render, and PageWidgets enhances it with every other widget of the page, so
 * there is nothing to mount. Their styles (widgets.css) come with PageWidgets, which every page
 * has: the shell links its stylesheet in the head when it renders it on the server. (Importing the
 * sheet here too would give every expose its own copy of the same CSS.)
 */
const mount: IslandMount = () => () => {};

export default mount;
