/**
 * The fixed topic list of the content store. Every article carries 1-3 of these;
 * the search index facets on them, so the spelling here is the facet value.
 */
export const TOPICS = [
  'Leadership',
  'Communication',
  'Feedback',
  'Negotiation',
  'Project Management',
  'Agile Working',
  'Remote Work',
  'Conflict Resolution',
  'Time Management',
  'Digital Skills',
  'Data Literacy',
  'Presentation',
  'Coaching',
  'Change Management',
  'Diversity and Inclusion',
  'Wellbeing at Work',
  'Learning',
] as const;

/** One of the fixed topics. */
export type Topic = (typeof TOPICS)[number];

/** True when `value` is one of the fixed topics. */
export function isTopic(value: unknown): value is Topic {
  return typeof value === 'string' && (TOPICS as readonly string[]).includes(value);
}

/** URL-safe slug of a topic, e.g. "Project Management" -> "project-management". Used for image file names. */
export function topicSlug(topic: string): string {
  return topic
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
