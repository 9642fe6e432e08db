import type { ReactElement } from 'react';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { PageConfig } from 'contracts';
import type { ContactRequestRepository } from '../database/index.js';
import { Layout } from '../pages/Layout.js';
import { renderPage } from '../pages/renderPage.js';
import { csrfSecretOf, isValidCsrfToken } from '../security/csrf.js';
import { CONTACT_LIMIT } from '../security/rateLimit/rateLimitPolicies.js';
import { rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import { createAttachmentStore } from './attachmentStore.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_BODY_MAX_BYTES, CONTACT_REFERENCE_LENGTH } from './contactLimits.js';
import { ContactProblemPage } from './ContactProblemPage.js';
import { ContactPostRefused, readContactSubmission, type ContactSubmission } from './readContactSubmission.js';
import { CONTACT_PATH, renderContactPage } from './renderContactPage.js';
import { hashRequestPassword } from './requestPassword.js';
import { validateContactSubmission } from './validateContactSubmission.js';

export interface ContactRoutesOptions {
  /** Where requests are stored (`openDatabase(...).contactRequests`). */
  contactRequests: ContactRequestRepository;
  /** Data directory; attachment bytes go to `<dataDir>/contact-attachments/<random id>`. */
  dataDir: string;
  /** Page config and runtime script URL, to render the page in the site layout. */
  pageConfig: PageConfig;
  runtimeUrl: string;
  /** Renders the page with its islands rendered by their remotes (`ShellCore.renderIslandPage`). Default: placeholders. */
  renderIslandPage?: (page: ReactElement, url: string) => Promise<string>;
}

function statusOf(error: Partial<FastifyError>): number {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/**
 * `GET /contact` (the page, see `renderContactPage`) and `POST /contact`, the form's multipart post. A plain form cannot send the `X-CSRF-Token` header, so
 * the route is exempt from the shell's header check and runs the same check (same secret
 * cookie, same token rules) on the form's `_csrf` field instead. Cheap checks come first:
 * - before any of the body is read: not multipart 415, no boundary 400, declared size over
 *   `CONTACT_BODY_MAX_BYTES` 413, no valid secret cookie 403, more than `CONTACT_LIMIT` posts
 *   from the client address 429;
 * - while reading: a wrong token 403 as soon as the `_csrf` field arrives, a file before any
 *   token 403 unread, too many parts or files 413, malformed multipart 400 — HTML pages,
 *   nothing stored;
 * - invalid fields: 422, the page again with the visitor's text (never password or file), an
 *   error summary and per-field messages;
 * - valid: the attachment is written to its own file, the request (password only as salted
 *   scrypt hash) to the database, and the browser is sent (303) to `/contact?sent=<reference>`.
 */
export async function contactRoutes(app: FastifyInstance, options: ContactRoutesOptions): Promise<void> {
  const { contactRequests, pageConfig, runtimeUrl } = options;
  const attachments = createAttachmentStore(options.dataDir);
  const submissions = new WeakMap<FastifyRequest, ContactSubmission>();
  // Registered here, so multipart parsing exists only inside this plugin. An over-long file is
  // cut and flagged rather than thrown, so the rest of the form is still read and shown again.
  await app.register(fastifyMultipart, { throwFileSizeLimit: false });

  // The page carries a CSRF token in its form, so the contact feature serves it too.
  const { renderIslandPage } = options;
  app.get<{ Querystring: { sent?: unknown } }>(CONTACT_PATH, (request, reply) =>
    renderContactPage(reply, {
      pageConfig,
      runtimeUrl,
      sent: request.query.sent,
      ...(renderIslandPage ? { render: (page: ReactElement) => renderIslandPage(page, request.url) } : {}),
    }),
  );

  const problemPage = (reply: FastifyReply, status: number) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        renderPage(
          <Layout title="Request not sent" config={pageConfig} runtimeUrl={runtimeUrl} pageClass="page-contact">
            <ContactProblemPage status={status} />
          </Layout>,
        ),
      );

  app.post(
    CONTACT_PATH,
    {
      config: { csrfExempt: true, ...rateLimitConfig(CONTACT_LIMIT) },
      // Header-only checks, before the rate limiter (which runs after the route's own onRequest).
      onRequest: async (request) => {
        // `request.isMultipart()` is only known once the parser ran: read the header itself.
        const contentType = request.headers['content-type'] ?? '';
        if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
          throw new ContactPostRefused(415, 'The contact form is sent as multipart/form-data');
        }
        if (!/;\s*boundary=/i.test(contentType)) {
          throw new ContactPostRefused(400, 'The form data could not be read (no multipart boundary)');
        }
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > CONTACT_BODY_MAX_BYTES) {
          throw new ContactPostRefused(413, 'The contact form is larger than allowed');
        }
        if (!csrfSecretOf(request)) throw new ContactPostRefused(403, 'The form token cookie is missing');
      },
      // The token travels in the form: it is checked as soon as it is read, before any file.
      preValidation: async (request) => {
        const header = request.headers['x-csrf-token'];
        submissions.set(
          request,
          await readContactSubmission(request, {
            headerToken: typeof header === 'string' ? header : undefined,
            isValid: (token) => isValidCsrfToken(request, token),
          }),
        );
      },
      // A browser posted this form: refusals are pages, not the API's JSON errors.
      errorHandler: (error: FastifyError, request, reply) => {
        const status = statusOf(error);
        if (status >= 500) request.log.error({ err: error }, 'contact request failed');
        else request.log.info({ status, reason: error.message }, 'contact post refused');
        return problemPage(reply, status);
      },
    },
    async (request, reply) => {
      const submission = submissions.get(request);
      if (!submission) throw new ContactPostRefused(400, 'No form data');
      const validation = validateContactSubmission(submission, CONTACT_ATTACHMENT_MAX_BYTES);
      if (!validation.ok) {
        const html = await renderContactPage(reply, {
          pageConfig,
          runtimeUrl,
          values: validation.values,
          errors: validation.errors,
          // Same page as the GET route: the islands rendered by their remotes, before any script.
          render: renderIslandPage ? (page) => renderIslandPage(page, request.url) : undefined,
        });
        return reply.code(422).send(html);
      }

      const { password, attachment, ...text } = validation.request;
      const passwordHash = password === undefined ? undefined : await hashRequestPassword(password);
      const storageId = attachment ? await attachments.save(attachment.bytes) : undefined;
      let id: string;
      try {
        id = await contactRequests.create({
          ...text,
          ...(passwordHash ? { passwordHash } : {}),
          ...(attachment && storageId
            ? { attachment: { storageId, fileName: attachment.fileName, sizeBytes: attachment.bytes.length, mimeType: attachment.mimeType } }
            : {}),
        });
      } catch (error) {
        // No orphan file for a request that was not stored.
        if (storageId) await attachments.remove(storageId).catch(() => undefined);
        throw error;
      }
      // Post/redirect/get: reloading the confirmation does not send the request again.
      return reply.redirect(`${CONTACT_PATH}?sent=${encodeURIComponent(id.slice(0, CONTACT_REFERENCE_LENGTH))}`, 303);
    },
  );
}
