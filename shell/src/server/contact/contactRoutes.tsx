import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { PageConfig } from 'contracts';
import type { ContactRequestRepository } from '../database/index.js';
import { Layout } from '../pages/Layout.js';
import { renderPage } from '../pages/renderPage.js';
import { createAttachmentStore } from './attachmentStore.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_REFERENCE_LENGTH } from './contactLimits.js';
import { ContactProblemPage } from './ContactProblemPage.js';
import { readContactSubmission, type ContactSubmission } from './readContactSubmission.js';
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
}

/** A refusal before validation, with the status the visitor's browser gets. */
class ContactPostRefused extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message);
    this.name = 'ContactPostRefused';
  }
}

function statusOf(error: Partial<FastifyError>): number {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/**
 * `POST /contact`: the contact form's multipart post (the page itself is served by
 * `renderContactPage`, see there). A plain form cannot send the `X-CSRF-Token` header, so
 * the route is exempt from the shell's header check and runs the same check
 * (`app.csrfProtection`, same secret cookie) on the form's `_csrf` field instead.
 * - not multipart: 415; missing or wrong token: 403; too many parts or files: 413 — HTML
 *   pages, nothing stored;
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
      config: { csrfExempt: true },
      // The form is read first because the token travels in it; checks follow in preHandler.
      preValidation: async (request) => {
        if (!request.isMultipart()) throw new ContactPostRefused(415, 'The contact form is sent as multipart/form-data');
        const submission = await readContactSubmission(request);
        submissions.set(request, submission);
        // Where the shell's CSRF check reads the token; the form's field wins over any header.
        if (submission.csrfToken !== undefined) request.headers['x-csrf-token'] = submission.csrfToken;
      },
      preHandler: app.csrfProtection,
      // A browser posted this form: refusals are pages, not the API's JSON errors.
      errorHandler: (error: FastifyError, request, reply) => {
        const status = statusOf(error);
        if (status >= 500) request.log.error({ err: error }, 'contact request failed');
        return problemPage(reply, status);
      },
    },
    async (request, reply) => {
      const submission = submissions.get(request);
      if (!submission) throw new ContactPostRefused(400, 'No form data');
      const validation = validateContactSubmission(submission, CONTACT_ATTACHMENT_MAX_BYTES);
      if (!validation.ok) {
        const html = await renderContactPage(reply, { pageConfig, runtimeUrl, values: validation.values, errors: validation.errors });
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
