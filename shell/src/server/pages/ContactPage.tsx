import { Dialog, DialogTrigger } from './widgets/Dialog.js';
import { FileField } from './widgets/FileField.js';
import { PasswordField } from './widgets/PasswordField.js';

export interface ContactPageProps {
  /** Where the form posts. Default `/contact`. */
  action?: string;
}

/** Id of the privacy notice dialog of the contact page. */
export const CONTACT_PRIVACY_DIALOG_ID = 'contact-privacy';

/**
 * Contact and sign-up page: a form with name, e-mail, a password (show/hide toggle), an
 * attachment (file name display) and a message, plus the privacy notice as a dialog. Works as
 * a plain form without script; mf-widgets adds the toggle, the file name and the dialog.
 */
export function ContactPage({ action = '/contact' }: ContactPageProps) {
  return (
    <div className="contact-page">
      <h1>Contact us or create an account</h1>
      <p>
        Ask a question about an article, suggest a topic, or sign up to keep your watchlist across devices. Read how we handle
        your data in our <DialogTrigger dialogId={CONTACT_PRIVACY_DIALOG_ID}>privacy notice</DialogTrigger>.
      </p>
      <form className="contact-form" method="post" action={action} encType="multipart/form-data">
        <div className="form-field">
          <label htmlFor="contact-name">Name</label>
          <input id="contact-name" name="name" type="text" autoComplete="name" />
        </div>
        <div className="form-field">
          <label htmlFor="contact-email">E-mail</label>
          <input id="contact-email" name="email" type="email" autoComplete="email" />
        </div>
        <PasswordField
          id="contact-password"
          name="password"
          label="Password (only to create an account)"
          hint="At least 12 characters. Leave empty if you only want to send a message."
        />
        <FileField id="contact-attachment" name="attachment" label="Attach a file (optional)" accept=".pdf,.doc,.docx,.png,.jpg" />
        <div className="form-field">
          <label htmlFor="contact-message">Message</label>
          <textarea id="contact-message" name="message" rows={6} />
        </div>
        <button type="submit">Send</button>
      </form>
      <Dialog id={CONTACT_PRIVACY_DIALOG_ID} title="Privacy notice">
        <p>
          We use your name and e-mail address only to answer your message or to run your account. Attachments are deleted after
          your request is answered.
        </p>
        <p>
          Analytics run only with your consent; change it in the <a href="#cookie-banner">cookie settings</a>.
        </p>
      </Dialog>
    </div>
  );
}
