import { END_PREVIEW_PATH } from '../federation/preview/previewRoutes.js';
import { currentRequestVersions } from '../federation/requestVersions.js';

/**
 * Says which remotes this page shows at a preview build, with a button that ends the previews
 * (a plain form post: works before any script). Shell markup, outside every remote. Renders
 * nothing without an active preview.
 */
export function PreviewMarker() {
  const previews = [...(currentRequestVersions()?.choices ?? [])].filter(([, choice]) => choice.reason === 'preview');
  if (previews.length === 0) return null;
  return (
    <aside className="preview-marker" aria-label="Preview" data-preview-marker="">
      <p className="preview-marker__text">
        Preview:{' '}
        {previews.map(([remote, choice], index) => (
          <span key={remote} data-preview-remote={remote}>
            {index > 0 ? ', ' : ''}
            <strong>{remote}</strong> at <code>{choice.version}</code>
          </span>
        ))}
        . Only this browser sees it.
      </p>
      <form method="post" action={END_PREVIEW_PATH}>
        <button type="submit" className="preview-marker__end">
          End preview
        </button>
      </form>
    </aside>
  );
}
