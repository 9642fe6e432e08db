/** Hand-written closing paragraphs; the composer ends every article with one of them. */
export const CLOSING_PARAGRAPHS: string[] = [
  'None of these practices requires a large budget or a reorganisation. Pick one idea that fits your current situation, try it for a month and then look honestly at what changed. Small, consistent steps are more likely to stick than an ambitious plan that is abandoned after the first busy week.',
  'If you want to go further, talk to colleagues who have tried similar approaches and ask what surprised them. Their experience will help you adapt the ideas to your own team and avoid the most common pitfalls.',
  'Start small, observe the effect and adjust. What works in one team may need a different shape in another, and that is fine. The goal is not to follow a method perfectly but to make everyday work a little clearer, calmer and more effective.',
  'As with most professional skills, reading about it is only the beginning. Practice in real situations, feedback from people you trust and regular reflection are what turn good intentions into reliable habits.',
  'It can help to find a learning partner: a colleague who is working on the same skill and with whom you can exchange experiences every few weeks. Sharing what went well and what did not keeps the topic on your agenda when daily business gets loud.',
  'Whatever you decide to try first, write it down and schedule a moment to review it. The review is where the real learning happens, because it shows which parts of the approach fit your context and which need to change.',
  'Competence grows in small increments. Be patient with yourself and with your team, celebrate visible progress and treat setbacks as information rather than failure. Over a few months, the difference becomes obvious.',
  'Our related articles and short surveys offer further ideas on the topic. Use them to compare your own experience with that of other readers and to choose your next step.',
];
