import { CONTACT_ATTACHMENT_ACCEPT, CONTACT_ATTACHMENT_TYPE_NAMES } from './attachmentTypes.js';
import {
  CONTACT_FIELDS,
  contactFieldErrorId,
  contactFieldId,
  EMPTY_CONTACT_VALUES,
  type ContactFieldError,
  type ContactFieldName,
  type ContactFormValues,
} from './contactForm.js';
import { renderToStaticMarkup } from 'react-dom/server';
import { CONTACT_ATTACHMENT_MAX_BYTES, REQUEST_PASSWORD_MIN_LENGTH } from './contactLimits.js';
import { FragmentIsland as Island } from './fragment/FragmentIsland.js';

export interface ContactPageProps {
  /** Where the form posts. Default `/contact`. */
  action?: string;
  /** CSRF token for the hidden `_csrf` field (a plain form cannot send headers). No field without it. */
  csrfToken?: string;
  /** Values to show again after a validation error. Default: empty. Never the password or the file. */
  values?: ContactFormValues;
  /** Validation errors, in form order: an error summary on top and a message at each field. Default none. */
  errors?: readonly ContactFieldError[];
  /** Reference of the request just sent: the page then confirms it instead of showing the form. */
  sentReference?: string;
}

/** Id of the privacy notice dialog of the contact page. */
export const CONTACT_PRIVACY_DIALOG_ID = 'contact-privacy';
/** Id of the error summary (the top of the form after a validation error). */
export const CONTACT_ERROR_SUMMARY_ID = 'contact-errors';

/** Text of the field's error, if it has one. */
function errorOf(errors: readonly ContactFieldError[], field: ContactFieldName): string | undefined {
  return errors.find((error) => error.field === field)?.message;
}

/** Attributes that tie an input to its error message. */
function invalidProps(field: ContactFieldName, error: string | undefined) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': contactFieldErrorId(field) } : {};
}

function FieldError({ field, message }: { field: ContactFieldName; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={contactFieldErrorId(field)} className="form-field__error">
      <span className="visually-hidden">Error: </span>
      {message}
    </p>
  );
}

/**
 * The shell's placeholder for a field mf-widgets renders (only when its server render fails): a
 * plain labelled input, so the form still works without the remote and without script.
 */
function PlainFieldPlaceholder({
  field,
  name,
  type,
  label,
  hint,
  error,
  accept,
}: {
  field: ContactFieldName;
  name: string;
  type: 'file' | 'password';
  label: string;
  hint: string;
  error: string | undefined;
  accept?: string;
}) {
  const hintId = `${contactFieldId(field)}-hint`;
  return (
    <div className="form-field">
      <label htmlFor={contactFieldId(field)}>{label}</label>
      <FieldError field={field} message={error} />
      <input
        id={contactFieldId(field)}
        name={name}
        type={type}
        accept={accept}
        autoComplete={type === 'password' ? 'new-password' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${contactFieldErrorId(field)} ${hintId}` : hintId}
      />
      <p id={hintId} className="form-field__hint">
        {hint}
      </p>
    </div>
  );
}

/** The privacy notice: the shell's text, shown by mf-widgets' dialog. */
function PrivacyNotice() {
  return (
    <>
      <p>
        We use your name, e-mail address, message and attachment only to answer your request. Attachments are deleted after
        your request is answered. A request password is stored only as a salted one-way hash: we cannot read it, we can only
        check it when you quote it.
      </p>
      <p>
        Analytics run only with your consent; change it in the <a href="#cookie-banner">cookie settings</a>.
      </p>
    </>
  );
}

const PRIVACY_NOTICE_TITLE = 'Privacy notice';

/**
 * Summary of every problem, each linking to its field; announced as an alert and focused when
 * the page loads (`autofocus`, so also without script), so keyboard and screen-reader users
 * start there.
 */
function ErrorSummary({ errors }: { errors: readonly ContactFieldError[] }) {
  return (
    <div
      id={CONTACT_ERROR_SUMMARY_ID}
      className="error-summary"
      role="alert"
      aria-labelledby={`${CONTACT_ERROR_SUMMARY_ID}-title`}
      tabIndex={-1}
      autoFocus
    >
      <h2 id={`${CONTACT_ERROR_SUMMARY_ID}-title`} className="error-summary__title">
        Your request was not sent yet: please check {errors.length === 1 ? 'one field' : `${errors.length} fields`}
      </h2>
      <ul className="error-summary__list">
        {errors.map((error) => (
          <li key={error.field}>
            <a href={`#${contactFieldId(error.field)}`}>{error.message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the visitor sees after sending: the reference and what happens next. */
function SentConfirmation({ reference }: { reference: string }) {
  return (
    <section className="contact-sent" role="status" aria-labelledby="contact-sent-title">
      <h2 id="contact-sent-title">Thank you, your request has been sent</h2>
      <p>
        Your reference is <strong className="contact-sent__reference">{reference}</strong>.
      </p>
      <h3>What happens next</h3>
      <ul>
        <li>An editor reads your request and answers by e-mail, to the address you gave.</li>
        <li>For a workshop request, we reply with possible dates and a proposal for the programme.</li>
        <li>
          If you set a request password, quote your reference and that password when you write to us: with both we can show
          you what you sent or withdraw the request.
        </li>
      </ul>
      <p>
        <a href="/contact">Send another request</a> · <a href="/">Back to the latest articles</a>
      </p>
    </section>
  );
}

/**
 * Contact page for anonymous visitors: a message to the editorial team or a workshop request,
 * with name, e-mail, message, an optional attachment (file name display) and an optional
 * request password (show/hide toggle) to identify the request later, plus the privacy notice
 * as a dialog. Works as a plain form without script (checked on the server only). The file and
 * password fields, the dialog and its trigger are mf-widgets' markup (server islands with
 * server-only props), which its PageWidgets island enhances: toggle, file name, modal dialog.
 */
export function ContactPage({ action = '/contact', csrfToken, values = EMPTY_CONTACT_VALUES, errors = [], sentReference }: ContactPageProps) {
  const nameError = errorOf(errors, 'name');
  const emailError = errorOf(errors, 'email');
  const messageError = errorOf(errors, 'message');
  const passwordError = errorOf(errors, 'password');
  const attachmentError = errorOf(errors, 'attachment');
  const passwordHint =
    `Optional. Set one if you may want to see or withdraw this request later. At least ${REQUEST_PASSWORD_MIN_LENGTH} characters; ` +
    'we keep it only as a one-way hash, so nobody can read it.';
  const attachmentField = {
    id: contactFieldId('attachment'),
    name: CONTACT_FIELDS.attachment,
    label: 'Attach a file (optional)',
    accept: CONTACT_ATTACHMENT_ACCEPT,
    hint: `For example a document for the editors: ${CONTACT_ATTACHMENT_TYPE_NAMES}, up to ${Math.round(CONTACT_ATTACHMENT_MAX_BYTES / (1024 * 1024))} MB.`,
  };
  const passwordField = { id: contactFieldId('password'), name: CONTACT_FIELDS.password, label: 'Request password (optional)', hint: passwordHint };
  return (
    <div className="contact-page">
      <h1>Contact the editorial team or request a workshop</h1>
      <p>
        Ask a question about an article, suggest a topic, point out a mistake, or ask us to run a workshop for your team. You
        do not need an account: we answer by e-mail. Read how we handle your data in our{' '}
        <Island name="mf-widgets/DialogTrigger" inline serverProps={{ dialogId: CONTACT_PRIVACY_DIALOG_ID, label: 'privacy notice' }}>
          <a href={`#${CONTACT_PRIVACY_DIALOG_ID}`}>privacy notice</a>
        </Island>
        .
      </p>
      {sentReference ? (
        <SentConfirmation reference={sentReference} />
      ) : (
        <form className="contact-form" method="post" action={action} encType="multipart/form-data" noValidate>
          {errors.length > 0 ? <ErrorSummary errors={errors} /> : null}
          {csrfToken ? <input type="hidden" name={CONTACT_FIELDS.csrf} value={csrfToken} /> : null}
          <div className="form-field">
            <label htmlFor={contactFieldId('name')}>Name</label>
            <FieldError field="name" message={nameError} />
            <input
              id={contactFieldId('name')}
              name={CONTACT_FIELDS.name}
              type="text"
              autoComplete="name"
              defaultValue={values.name}
              {...invalidProps('name', nameError)}
            />
          </div>
          <div className="form-field">
            <label htmlFor={contactFieldId('email')}>E-mail</label>
            <FieldError field="email" message={emailError} />
            <input
              id={contactFieldId('email')}
              name={CONTACT_FIELDS.email}
              type="email"
              autoComplete="email"
              defaultValue={values.email}
              {...invalidProps('email', emailError)}
            />
          </div>
          <div className="form-field">
            <label htmlFor={contactFieldId('message')}>Message</label>
            <FieldError field="message" message={messageError} />
            <textarea
              id={contactFieldId('message')}
              name={CONTACT_FIELDS.message}
              rows={6}
              defaultValue={values.message}
              {...invalidProps('message', messageError)}
            />
          </div>
          {/* mf-widgets renders these two fields (and enhances them); the props stay on the server. */}
          <Island name="mf-widgets/FileField" serverProps={{ ...attachmentField, error: attachmentError }}>
            <PlainFieldPlaceholder field="attachment" type="file" {...attachmentField} error={attachmentError} />
          </Island>
          <Island name="mf-widgets/PasswordField" serverProps={{ ...passwordField, error: passwordError }}>
            <PlainFieldPlaceholder field="password" type="password" {...passwordField} error={passwordError} />
          </Island>
          <button type="submit">Send request</button>
        </form>
      )}
      <Island
        name="mf-widgets/Dialog"
        serverProps={{ id: CONTACT_PRIVACY_DIALOG_ID, title: PRIVACY_NOTICE_TITLE, bodyHtml: renderToStaticMarkup(<PrivacyNotice />) }}
      >
        <section id={CONTACT_PRIVACY_DIALOG_ID} aria-labelledby={`${CONTACT_PRIVACY_DIALOG_ID}-title`}>
          <h2 id={`${CONTACT_PRIVACY_DIALOG_ID}-title`}>{PRIVACY_NOTICE_TITLE}</h2>
          <PrivacyNotice />
        </section>
      </Island>
    </div>
  );
}
