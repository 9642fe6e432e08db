/**
 * Workplace word list for the article generator. It widens the vocabulary beyond the seeded corpus
 * so generated corpora have realistic term-frequency spread (common and rare words), including a few
 * words with diacritics for diacritic-folding benchmarks.
 */
export const WORD_LIST = {
  adjectives: [
    'practical', 'sustainable', 'honest', 'focused', 'resilient', 'inclusive', 'structured', 'pragmatic',
    'collaborative', 'transparent', 'effective', 'curious', 'lean', 'flexible', 'reliable', 'hybrid',
    'distributed', 'evidence-based', 'constructive', 'confident', 'empathetic', 'strategic', 'everyday',
    'cross-functional', 'data-informed', 'customer-centred', 'lightweight', 'deliberate', 'open', 'naïve',
    'clear', 'calm', 'small', 'regular', 'visible', 'shared', 'simple', 'modern', 'fair', 'thoughtful',
  ],
  nouns: [
    'feedback', 'meetings', 'priorities', 'decisions', 'onboarding', 'retrospectives', 'workshops', 'goals',
    'habits', 'routines', 'dashboards', 'metrics', 'stakeholders', 'deadlines', 'budgets', 'roadmaps',
    'conversations', 'presentations', 'teams', 'mentoring', 'coaching', 'negotiations', 'conflicts',
    'collaboration', 'documentation', 'handovers', 'backlogs', 'check-ins', 'one-to-ones', 'workflows',
    'learning paths', 'career steps', 'working agreements', 'status reports', 'team rituals', 'breaks',
    'résumés', 'café breaks', 'interviews', 'experiments', 'pilots', 'reviews', 'estimates', 'risks',
  ],
  verbs: [
    'improve', 'simplify', 'structure', 'rethink', 'prepare', 'lead', 'run', 'plan', 'measure', 'share',
    'protect', 'design', 'organise', 'review', 'strengthen', 'streamline', 'start', 'sustain', 'facilitate',
    'document', 'prioritise', 'communicate', 'negotiate', 'celebrate', 'untangle', 'shorten', 'balance',
  ],
  audiences: [
    'new managers', 'project leads', 'remote teams', 'hybrid teams', 'specialists', 'team leads',
    'product owners', 'trainees', 'HR partners', 'sales teams', 'engineers', 'senior leaders',
    'small businesses', 'public administrations', 'customer service teams', 'freelancers', 'apprentices',
  ],
  contexts: [
    'busy weeks', 'times of change', 'distributed teams', 'large organisations', 'start-ups', 'the first year',
    'cross-border projects', 'tight budgets', 'hybrid offices', 'fast-growing teams', 'crisis situations',
    'public sector projects', 'family businesses', 'international teams',
  ],
  rareWords: [
    'kaizen', 'hoshin', 'sociocracy', 'holacracy', 'obeya', 'gemba', 'heijunka', 'andon', 'jidoka',
    'ikigai', 'hygge', 'Führung', 'Zusammenarbeit', 'coöperation', 'façade', 'déjà-vu', 'élan', 'rôle',
    'entrepôt', 'Gespräch', 'Schnittstelle', 'Arbeitsweise', 'Weiterbildung', 'Überblick',
  ],
} as const;
