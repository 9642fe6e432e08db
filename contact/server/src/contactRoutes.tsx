import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { CONTACT_SERVICE_PATHS, PAGE_FRAGMENT_MEDIA_TYPE, callRoutePattern, type PageFragment } from 'contracts';
import { isEdgeKey, trustedFormToken, EDGE_KEY_HEADER } from '@khs/team-service/edge';
import type { AttachmentStore } from './attachmentStore.js';
import { CONTACT_ATTACHMENT_MAX_BYTES, CONTACT_BODY_MAX_BYTES, CONTACT_REFERENCE_LENGTH } from './contactLimits.js';
import { ContactPostRefused, readContactSubmission, type ContactSubmission } from './readContactSubmission.js';
import { CONTACT_PATH, CONTACT_PROBLEM_STATUSES, renderContactFragment, renderContactProblemFragment } from './renderContactFragment.js';
import { hashRequestPassword } from './requestPassword.js';
import type { ContactRequestRepository } from './storage/contactRequestRepository.js';
import { validateContactSubmission } from './validateContactSubmission.js';
import { sendApiError } from '@khs/team-service/errors';

export interface ContactRoutesOptions {
  /** Where requests are stored. */
  contactRequests: ContactRequestRepository;
  /** Where attachment bytes are written. */
  attachments: AttachmentStore;
  /** `edgeKeyOf(COOKIE_SECRET)`: only requests from the shell (which checked CSRF and limits) are served. */
  edgeKey: string;
}

function statusOf(error: Partial<FastifyError>): number {
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/** Sends a page fragment (never cached: the form holds a per-visitor token). */
function sendFragment(reply: FastifyReply, status: number, fragment: PageFragment) {
  return reply.code(status).header('cache-control', 'no-store').type(PAGE_FRAGMENT_MEDIA_TYPE).send(JSON.stringify(fragment));
}

/**
 * The contact service's routes. The shell serves `/contact` in the site layout and asks here for
 * the content; the form's post is forwarded here by the shell after its checks (CSRF token in the
 * form or header, rate limit, size, content type). Every answer is a `PageFragment` with the
 * page's status, except the 303 after a stored request:
 * - `GET /contact/fragment?sent=` the form (the edge's token in `x-khs-form-token`) or the confirmation;
 * - `GET /contact/problem/:status` the explanation of a post the edge refused itself;
 * - `POST /contact` (multipart): malformed or too large 400/413/415 (problem content), invalid
 *   fields 422 (the form again with the visitor's text, never password or file, an error summary
 *   and per-field messages), valid: the attachment to its own file, the request (password only as
 *   salted scrypt hash) to the database, 303 to `/contact?sent=<reference>`.
 * Requests without the edge key get 403: a browser cannot reach the service except through the shell.
 */
export async function contactRoutes(app: FastifyInstance, options: ContactRoutesOptions): Promise<void> {
  const { contactRequests, attachments, edgeKey } = options;
  const submissions = new WeakMap<FastifyRequest, ContactSubmission>();
  // An over-long file is cut and flagged rather than thrown, so the rest of the form is still read and shown again.
  await app.register(fastifyMultipart, { throwFileSizeLimit: false });

  // Only the edge: it checked the token and the limits before anything reached the service.
  app.addHook('onRequest', async (request, reply) => {
    if (!isEdgeKey(request.headers[EDGE_KEY_HEADER], edgeKey)) {
      return sendFragment(reply, 403, renderContactProblemFragment(403));
    }
    return undefined;
  });

  app.get<{ Querystring: { sent?: unknown } }>(CONTACT_SERVICE_PATHS.pageFragment, async (request, reply) =>
    sendFragment(reply, 200, renderContactFragment({ csrfToken: trustedFormToken(request.headers, edgeKey), sent: request.query.sent })),
  );

  app.get<{ Params: { status: string } }>(callRoutePattern(CONTACT_SERVICE_PATHS.problemFragment), async (request, reply) => {
    const status = Number(request.params.status);
    if (!(CONTACT_PROBLEM_STATUSES as readonly number[]).includes(status)) return sendApiError(reply, { statusCode: 404, message: 'Unknown status' });
    return sendFragment(reply, status, renderContactProblemFragment(status));
  });

  app.post(
    CONTACT_PATH,
    {
      bodyLimit: CONTACT_BODY_MAX_BYTES,
      // Header-only checks before any of the body is read (the edge made them too; a service keeps its own).
      onRequest: async (request) => {
        const contentType = request.headers['content-type'] ?? '';
        if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) throw new ContactPostRefused(415, 'The contact form is sent as multipart/form-data');
        if (!/;\s*boundary=/i.test(contentType)) throw new ContactPostRefused(400, 'The form data could not be read (no multipart boundary)');
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > CONTACT_BODY_MAX_BYTES) throw new ContactPostRefused(413, 'The contact form is larger than allowed');
      },
      preValidation: async (request) => {
        submissions.set(request, await readContactSubmission(request));
      },
      // A browser posted this form: refusals are page content, not JSON errors.
      errorHandler: (error: FastifyError, request, reply) => {
        const status = statusOf(error);
        if (status >= 500) request.log.error({ err: error }, 'contact request failed');
        else request.log.info({ status, reason: error.message }, 'contact post refused');
        return sendFragment(reply, status, renderContactProblemFragment(status));
      },
    },
    async (request, reply) => {
      const submission = submissions.get(request);
      if (!submission) throw new ContactPostRefused(400, 'No form data');
      const validation = validateContactSubmission(submission, CONTACT_ATTACHMENT_MAX_BYTES);
      if (!validation.ok) {
        const fragment = renderContactFragment({ csrfToken: trustedFormToken(request.headers, edgeKey), values: validation.values, errors: validation.errors });
        return sendFragment(reply, 422, fragment);
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
      return reply.header('cache-control', 'no-store').redirect(`${CONTACT_PATH}?sent=${encodeURIComponent(id.slice(0, CONTACT_REFERENCE_LENGTH))}`, 303);
    },
  );
}
