import type pg from 'pg';
import type { SurveyRepository } from './surveyRepository.js';

/**
 * Survey votes in PostgreSQL. The primary key (form_handle, voter_id) makes one vote per
 * voter (ON CONFLICT DO NOTHING); one statement inserts the vote and, only if it was
 * inserted, bumps its answer's counter, so results read a few counter rows.
 */
export function postgresSurveyRepository(pool: pg.Pool): SurveyRepository {
  return {
    async recordVote({ formHandle, answerPosition, voterId }) {
      const result = await pool.query<{ counted: boolean }>(
        `WITH inserted AS (
           INSERT INTO survey_votes (form_handle, voter_id, answer_position) VALUES ($1, $2, $3)
           ON CONFLICT (form_handle, voter_id) DO NOTHING
           RETURNING form_handle, answer_position
         ), bumped AS (
           INSERT INTO survey_vote_counts (form_handle, answer_position, votes)
           SELECT form_handle, answer_position, 1 FROM inserted
           ON CONFLICT (form_handle, answer_position) DO UPDATE SET votes = survey_vote_counts.votes + 1
           RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM bumped) AS counted`,
        [formHandle, voterId, answerPosition],
      );
      return { counted: result.rows[0]?.counted === true };
    },
    async countVotes(formHandle) {
      const { rows } = await pool.query<{ position: number; votes: number }>(
        'SELECT answer_position AS position, votes FROM survey_vote_counts WHERE form_handle = $1',
        [formHandle],
      );
      const counts: Record<number, number> = {};
      for (const row of rows) counts[row.position] = row.votes;
      return counts;
    },
  };
}
