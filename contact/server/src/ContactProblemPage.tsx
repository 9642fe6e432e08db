import { CONTACT_ATTACHMENT_MAX_BYTES } from './contactLimits.js';

export interface ContactProblemPageProps {
  /** HTTP status of the answer: 403 (form expired / not from our page), 413, 415 or 400, 429, else a server error. */
  status: number;
}

const megabytes = Math.round(CONTACT_ATTACHMENT_MAX_BYTES / (1024 * 1024));

/** Headline and explanation per status, in words a visitor can act on. */
function explain(status: number): { headline: string; text: string } {
  switch (status) {
    case 403:
      return {
        headline: 'Your request was not sent',
        text:
          'The form had expired or did not come from our contact page, so we could not accept it. ' +
          'Open the contact page again and send your request from there.',
      };
    case 413:
      return {
        headline: 'Your request was too large',
        text: `Send one file of at most ${megabytes} MB together with your message, from the contact page.`,
      };
    case 429:
      return {
        headline: 'Too many requests from your network',
        text: 'We received many requests from your address in a short time, so this one was not accepted. Please wait a few minutes and send it again.',
      };
    case 415:
    case 406:
    case 400:
      return {
        headline: 'Your request could not be read',
        text: 'The form data was incomplete or not in the expected format. Please send it again from the contact page.',
      };
    default:
      return {
        headline: 'Your request could not be stored',
        text: 'Something went wrong on our side and nothing was stored. Please try again in a few minutes.',
      };
  }
}

/** Page for a contact post that is refused before validation (nothing was stored). */
export function ContactProblemPage({ status }: ContactProblemPageProps) {
  const { headline, text } = explain(status);
  return (
    <section className="contact-problem">
      <h1>{headline}</h1>
      <p>{text}</p>
      <p>
        <a href="/contact">Back to the contact page</a>
      </p>
    </section>
  );
}
