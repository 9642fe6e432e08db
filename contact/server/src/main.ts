// Starts the contact service on its own (`npm start -w contact`): its own port (PORT, default from
// the stack registry), its own storage (`$DATA_DIR/contact.sqlite` and `$DATA_DIR/contact-attachments/`,
// or the `contact` schema with DATABASE_URL), reached by browsers only through the shell.
import { teamService } from '@khs/stack/registry';
import { readServiceSettings, runService, ServiceSettingsError, startProcessLogs } from '@khs/team-service';
import { buildContactService } from './buildContactService.js';
import { CONTACT_SERVICE_NAME, openContactStorage } from './storage/openContactStorage.js';

async function main(): Promise<void> {
  // Every line of this process as JSON, its first one included.
  startProcessLogs(CONTACT_SERVICE_NAME);
  const settings = readServiceSettings(teamService(CONTACT_SERVICE_NAME));
  if (settings.usesDevelopmentEdgeKey) console.log(`[${CONTACT_SERVICE_NAME}] ${teamService(CONTACT_SERVICE_NAME).edgeKeyEnv} is not set: using the public development edge key (loopback only).`);
  const storage = await openContactStorage({ dataDir: settings.dataDir, databaseUrl: settings.databaseUrl, schema: settings.databaseSchema });
  const app = await buildContactService({
    storage,
    dataDir: settings.dataDir,
    edgeKey: settings.edgeKey,
    logger: process.env.LOG_LEVEL ? { level: process.env.LOG_LEVEL } : false,
  });
  await runService({ name: CONTACT_SERVICE_NAME, app, host: settings.host, port: settings.port, onClose: () => storage.close() });
  console.log(`[${CONTACT_SERVICE_NAME}] storage: ${storage.dialect}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ServiceSettingsError ? error.message : error);
  process.exit(1);
});
