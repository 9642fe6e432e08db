import type { FastifyInstance } from 'fastify';
import { PREVIEW_LINK_PATH, parseExpires, verifyPreview } from '@khs/deploy/preview-link';
import { PREVIEW_COOKIE_NAME, activePreviews, encodePreviewCookie, withPreview } from './previewCookie.js';

/** Where the marker's "End preview" form posts. */
export const END_PREVIEW_PATH = `${PREVIEW_LINK_PATH}/end`;

export interface PreviewRouteOptions {
  /** The operators' `REMOTE_PREVIEW_SECRET`, which signed the links. */
  secret: string;
  /** Names of the configured remotes: a link for another is refused. */
  remotes: readonly string[];
  now?: () => number;
  /**
   * Loads the previewed build on the server before the browser is sent to it, so its first page
   * renders fully (a cold build may take longer than the island budget). Failures are ignored (the
   * page then shows that remote's placeholders, as for any failing remote). Default none.
   */
  warm?: (remote: string, version: string) => Promise<void>;
  /** The longest the link waits for `warm`. Default 5000 ms. */
  warmTimeoutMs?: number;
}

interface PreviewQuery {
  remote?: string;
  version?: string;
  expires?: string;
  sig?: string;
}

/**
 * `GET /__preview?remote&version&expires&sig` (a link printed by `deploy --preview`): a valid,
 * unexpired link adds its preview to the browser's preview cookie (HttpOnly, until the link
 * expires; several remotes at once) and sends it to the home page; anything else is refused (403,
 * no cookie). `POST /__preview/end` ends every preview (the marker's button). Registered only when
 * the shell has the secret.
 */
export async function previewRoutes(app: FastifyInstance, options: PreviewRouteOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const refuse = (reply: { code(status: number): { header(name: string, value: string): { type(value: string): { send(body: string): unknown } } } }, why: string) =>
    reply.code(403).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(`This preview link is not valid: ${why}. Ask for a new one (npm run deploy -w <remote> -- --preview).`);

  app.get<{ Querystring: PreviewQuery }>(PREVIEW_LINK_PATH, async (request, reply) => {
    const { remote, version, sig } = request.query;
    const preview = { remote, version, expires: parseExpires(request.query.expires), sig };
    const at = now();
    if (typeof remote !== 'string' || !options.remotes.includes(remote)) return refuse(reply, 'it names no remote of this site');
    if (Number.isFinite(preview.expires) && preview.expires <= at && verifyPreview(preview, options.secret, preview.expires - 1)) return refuse(reply, 'it has expired');
    if (!verifyPreview(preview, options.secret, at)) return refuse(reply, 'its signature does not match');
    const previews = withPreview(activePreviews(request.cookies[PREVIEW_COOKIE_NAME], options.secret, at), { remote, version: version!, expires: preview.expires, sig: sig! });
    if (options.warm) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        options.warm(remote, version!).catch(() => {}),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, options.warmTimeoutMs ?? 5000))),
      ]);
      clearTimeout(timer);
    }
    const maxAge = Math.ceil((Math.max(...previews.map((entry) => entry.expires)) - at) / 1000);
    return reply
      .setCookie(PREVIEW_COOKIE_NAME, encodePreviewCookie(previews), { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge })
      .header('cache-control', 'no-store')
      .redirect('/', 303);
  });

  // The marker's form posts an empty urlencoded body (read in this plugin's scope only, and ignored).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  // No CSRF token: the only effect is ending the caller's own previews (and a cross-site form
  // post does not carry the SameSite=Lax cookie anyway); the marker's plain form needs no script.
  app.post(END_PREVIEW_PATH, { config: { csrfExempt: true } }, async (_request, reply) =>
    reply.clearCookie(PREVIEW_COOKIE_NAME, { path: '/' }).header('cache-control', 'no-store').redirect('/', 303),
  );
}
