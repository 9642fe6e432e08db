import type BetterSqlite3 from 'better-sqlite3';
import type { SurveyRepository } from '../types.js';

/** Survey votes in SQLite; the primary key (form_handle, voter_id) makes one vote per voter. */
export function sqliteSurveyRepository(db: BetterSqlite3.Database): SurveyRepository {
  const insertVote = db.prepare(
    'INSERT INTO survey_votes (form_handle, voter_id, answer_position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const countByPosition = db.prepare(
    'SELECT answer_position AS position, COUNT(*) AS votes FROM survey_votes WHERE form_handle = ? GROUP BY answer_position',
  );
  return {
    async recordVote({ formHandle, answerPosition, voterId }) {
      return { counted: insertVote.run(formHandle, voterId, answerPosition).changes === 1 };
    },
    async countVotes(formHandle) {
      const counts: Record<number, number> = {};
      for (const row of countByPosition.all(formHandle) as Array<{ position: number; votes: number }>) {
        counts[row.position] = row.votes;
      }
      return counts;
    },
  };
}
