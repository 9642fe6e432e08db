import type pg from 'pg';
import { CONTACT_REQUEST_COLUMNS, contactRequestFromRow, contactRequestParameters, type ContactRequestRow } from './contactRequestRow.js';
import { isRequestId, newRequestId } from './requestId.js';
import type { ContactRequestRepository } from './contactRequestRepository.js';

const INSERT = `INSERT INTO contact_requests (${CONTACT_REQUEST_COLUMNS.join(', ')})
  VALUES (${CONTACT_REQUEST_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
const SELECT = `SELECT ${CONTACT_REQUEST_COLUMNS.join(', ')}, created_at FROM contact_requests WHERE id = $1`;

/** Contact requests in PostgreSQL. */
export function postgresContactRequestRepository(pool: pg.Pool): ContactRequestRepository {
  return {
    async create(request) {
      const id = newRequestId();
      await pool.query(INSERT, contactRequestParameters(id, request));
      return id;
    },
    async get(id) {
      if (!isRequestId(id)) return undefined;
      const { rows } = await pool.query<ContactRequestRow>(SELECT, [id]);
      const row = rows[0];
      return row ? contactRequestFromRow(row) : undefined;
    },
    async count() {
      const { rows } = await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM contact_requests');
      return Number(rows[0]?.n ?? 0);
    },
  };
}
