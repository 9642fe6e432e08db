import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createServiceApp } from '@khs/team-service';
import { createAttachmentStore } from './attachmentStore.js';
import { CONTACT_BODY_MAX_BYTES } from './contactLimits.js';
import { contactRoutes } from './contactRoutes.js';
import type { ContactRequestRepository } from './storage/contactRequestRepository.js';
import { CONTACT_SERVICE_NAME, type ContactStorage } from './storage/openContactStorage.js';

/** What the contact service is built from. */
export interface ContactServiceDependencies {
  storage: Pick<ContactStorage, 'check'> & { contactRequests: ContactRequestRepository };
  /** Data directory: attachment bytes go to `<dataDir>/contact-attachments/<random id>`. */
  dataDir: string;
  /** The service's own edge key (its registry `edgeKeyEnv`). */
  edgeKey: string;
  logger?: FastifyServerOptions['logger'];
}

/** The contact service's app: `/health` (with a storage check), the page content and the form post. */
export async function buildContactService(deps: ContactServiceDependencies): Promise<FastifyInstance> {
  const app = createServiceApp({ name: CONTACT_SERVICE_NAME, logger: deps.logger, checkStorage: deps.storage.check, bodyLimit: CONTACT_BODY_MAX_BYTES });
  await app.register(contactRoutes, { contactRequests: deps.storage.contactRequests, attachments: createAttachmentStore(deps.dataDir), edgeKey: deps.edgeKey });
  return app;
}
