import type pg from 'pg';
import type { SurveyRepository } from '../types.js';

/** Survey votes in PostgreSQL; the primary key (form_handle, voter_id) makes one vote per voter. */
export function postgresSurveyRepository(pool: pg.Pool): SurveyRepository {
  return {
    async recordVote({ formHandle, answerPosition, voterId }) {
      const result = await pool.query(
        `INSERT INTO survey_votes (form_handle, voter_id, answer_position) VALUES ($1, $2, $3)
         ON CONFLICT (form_handle, voter_id) DO NOTHING`,
        [formHandle, voterId, answerPosition],
      );
      return { counted: result.rowCount === 1 };
    },
    async countVotes(formHandle) {
      // COUNT(*) is bigint, which pg returns as a string: cast, vote counts fit in an int.
      const { rows } = await pool.query<{ position: number; votes: number }>(
        `SELECT answer_position AS position, COUNT(*)::int AS votes FROM survey_votes
         WHERE form_handle = $1 GROUP BY answer_position`,
        [formHandle],
      );
      const counts: Record<number, number> = {};
      for (const row of rows) counts[row.position] = row.votes;
      return counts;
    },
  };
}
