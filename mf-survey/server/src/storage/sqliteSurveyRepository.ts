import type BetterSqlite3 from 'better-sqlite3';
import type { SurveyRepository, VoteInput } from './surveyRepository.js';

/**
 * Survey votes in SQLite. The primary key (form_handle, voter_id) makes one vote per voter;
 * a counted vote also bumps its answer's counter in the same transaction, so results read a
 * few counter rows instead of scanning every vote.
 */
export function sqliteSurveyRepository(db: BetterSqlite3.Database): SurveyRepository {
  const insertVote = db.prepare(
    'INSERT INTO survey_votes (form_handle, voter_id, answer_position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const bumpCount = db.prepare(`INSERT INTO survey_vote_counts (form_handle, answer_position, votes) VALUES (?, ?, 1)
    ON CONFLICT (form_handle, answer_position) DO UPDATE SET votes = votes + 1`);
  const selectCounts = db.prepare(
    'SELECT answer_position AS position, votes FROM survey_vote_counts WHERE form_handle = ?',
  );
  const record = db.transaction(({ formHandle, answerPosition, voterId }: VoteInput): boolean => {
    if (insertVote.run(formHandle, voterId, answerPosition).changes !== 1) return false;
    bumpCount.run(formHandle, answerPosition);
    return true;
  });
  return {
    async recordVote(vote) {
      // IMMEDIATE: take the write lock up front so another process cannot interleave.
      return { counted: record.immediate(vote) };
    },
    async countVotes(formHandle) {
      const counts: Record<number, number> = {};
      for (const row of selectCounts.all(formHandle) as Array<{ position: number; votes: number }>) {
        counts[row.position] = row.votes;
      }
      return counts;
    },
  };
}
