import type { FixtureDocument } from '../fixtures/generate-documents.js';

/** Small article-like fixtures with known words, diacritics, topics and dates. */
export type FixtureArticle = FixtureDocument;

const base = { image: '/images/a.jpg', cta: 'Read more' };

export const fixtureArticles: FixtureArticle[] = [
  {
    ...base,
    id: 'a1',
    headline: 'Leadership',
    title: 'Leadership in remote teams',
    subline: 'How managers keep distributed teams together',
    intro: 'Remote leadership needs trust, clear goals and regular feedback.',
    content:
      'Leading a remote team is different from leading people in one office. Trust grows when goals are clear, feedback is regular and communication channels are agreed. Managers who over-control lose their best people. This article collects practical habits for weekly check-ins, asynchronous updates and honest one-to-one conversations that help distributed teams deliver.',
    topic: ['Leadership', 'Remote Work'],
    date: 1_700_000_000,
    url: '/articles/a1',
    readingTime: 6,
  },
  {
    ...base,
    id: 'a2',
    headline: 'Communication',
    title: 'Feedback that works',
    intro: 'Giving feedback is a skill you can practise every day.',
    content: 'Good feedback is specific, timely and kind. Ask before you give it, describe behaviour rather than character, and agree on a next step together.',
    topic: ['Communication', 'Leadership'],
    date: 1_710_000_000,
    url: '/articles/a2',
    readingTime: 4,
  },
  {
    ...base,
    id: 'a3',
    headline: 'Negotiation',
    title: 'Negotiation basics for beginners',
    intro: 'Prepare your options before you sit at the table.',
    content: 'Know your best alternative, listen more than you talk and look for interests behind positions. Negotiation is communication with a goal.',
    topic: ['Communication'],
    date: 1_690_000_000,
    url: '/articles/a3',
    readingTime: 5,
  },
  {
    ...base,
    id: 'a4',
    headline: 'Wellbeing',
    title: 'Résumé tips and café breaks',
    intro: 'Small breaks keep your energy up during long working days.',
    content: 'A short walk, a coffee at the café and a tidy résumé: small things that help your career and your health.',
    topic: ['Wellbeing', 'Career'],
    date: 1_720_000_000,
    url: '/articles/a4',
    readingTime: 3,
  },
  {
    ...base,
    id: 'a5',
    headline: 'Project management',
    title: 'Agile planning without stress',
    intro: 'Plan in short cycles and review often.',
    content: 'Agile planning splits work into small steps. Teams review progress every week and adapt the plan. Competence grows with each cycle.',
    topic: ['Project Management', 'Remote Work'],
    date: 1_680_000_000,
    url: '/articles/a5',
    readingTime: 7,
  },
];
