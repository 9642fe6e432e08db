import type BetterSqlite3 from 'better-sqlite3';
import { CONTACT_REQUEST_COLUMNS, contactRequestFromRow, contactRequestParameters, type ContactRequestRow } from './contactRequestRow.js';
import { isRequestId, newRequestId } from './requestId.js';
import type { ContactRequestRepository } from './contactRequestRepository.js';

/** Contact requests in SQLite. */
export function sqliteContactRequestRepository(db: BetterSqlite3.Database): ContactRequestRepository {
  const insert = db.prepare(
    `INSERT INTO contact_requests (${CONTACT_REQUEST_COLUMNS.join(', ')}) VALUES (${CONTACT_REQUEST_COLUMNS.map(() => '?').join(', ')})`,
  );
  const select = db.prepare(`SELECT ${CONTACT_REQUEST_COLUMNS.join(', ')}, created_at FROM contact_requests WHERE id = ?`);
  const countAll = db.prepare('SELECT COUNT(*) AS n FROM contact_requests');
  return {
    async create(request) {
      const id = newRequestId();
      insert.run(...contactRequestParameters(id, request));
      return id;
    },
    async get(id) {
      if (!isRequestId(id)) return undefined;
      const row = select.get(id) as ContactRequestRow | undefined;
      return row ? contactRequestFromRow(row) : undefined;
    },
    async count() {
      return (countAll.get() as { n: number }).n;
    },
  };
}
