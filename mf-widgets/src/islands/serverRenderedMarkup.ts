import type { IslandMount } from 'contracts';
// The markup's styles: with this import the manifest names the sheet for every markup island, so the
// shell links it in the page head whenever one is rendered on the server (not only with PageWidgets).
import '../styles/widgets.css';

/**
 * Browser side of the markup islands (ArticleWidgets, ArticleContentsTrigger, FileField,
 * PasswordField, Dialog, DialogTrigger): their HTML comes
 * from the server render, and PageWidgets enhances it with every other widget of the page, so
 * there is nothing to mount.
 */
const mount: IslandMount = () => () => {};

export default mount;
