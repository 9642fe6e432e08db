/** A vote to record: one per voter per survey. */
export interface VoteInput {
  formHandle: string;
  answerPosition: number;
  /** Stable, opaque id of the voting browser (derived by the edge from its signed cookie). */
  voterId: string;
}

/** Survey votes. */
export interface SurveyRepository {
  /**
   * Stores a vote unless this voter already voted on this survey. Race-free: a unique key on
   * (survey, voter) decides, so parallel duplicates (from any instance) count once.
   */
  recordVote(vote: VoteInput): Promise<{ counted: boolean }>;
  /** Votes per answer position; positions without votes are absent. */
  countVotes(formHandle: string): Promise<Record<number, number>>;
}
