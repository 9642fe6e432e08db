import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { axeViolations } from '../harness/axe.js';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { remoteBuildVariant } from '../harness/remoteVariant.js';


/** A small file that starts like a PDF (the server checks the first bytes). */
const BRIEF = { name: 'workshop-brief.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% workshop brief\n%%EOF\n') };
const SENT_URL = /\/contact\?sent=[A-Za-z0-9_-]{8}$/;

/**
 * Opens the contact page, which carries its form's CSRF token. Its fields are mf-widgets' server
 * markup: a freshly started shell may still be loading that server build (the page then holds
 * plain placeholders, see 'contact form without mf-widgets on the server'), so wait until the shell renders it.
 */
async function openContactPage(page: Page, base: string): Promise<void> {
  await expect
    .poll(async () => (await (await fetch(new URL('/contact', base))).text()).includes('data-widget="file-upload"'), { timeout: 20_000 })
    .toBe(true);
  const response = await page.goto(new URL('/contact', base).href);
  expect(response?.status()).toBe(200);
  await expect(page.locator('form.contact-form input[name="_csrf"]')).toHaveCount(1);
}

async function expectConfirmation(page: Page): Promise<void> {
  await expect(page).toHaveURL(SENT_URL);
  const reference = new URL(page.url()).searchParams.get('sent')!;
  const confirmation = page.getByRole('status');
  await expect(confirmation.getByRole('heading', { name: 'Thank you, your request has been sent' })).toBeVisible();
  await expect(confirmation).toContainText(reference);
  await expect(confirmation).toContainText('What happens next');
}

/** The form's file and password fields, the privacy dialog and its trigger are mf-widgets' server markup. */
async function expectWidgetsRenderedOnServer(page: Page, widgetsOrigin: string): Promise<void> {
  const island = (name: string) => page.locator(`[data-island="mf-widgets/${name}"]`);
  await expect(island('FileField').locator('.khs-widgets-file-field[data-widget="file-upload"] input[type="file"][name="attachment"]')).toHaveCount(1);
  await expect(island('PasswordField').locator('.khs-widgets-password-field[data-widget="password-toggle"] input[type="password"][name="password"]')).toHaveCount(1);
  await expect(island('Dialog').locator('section#contact-privacy[data-widget="dialog"] .khs-widgets-dialog__body a[href="#cookie-banner"]')).toHaveCount(1);
  await expect(island('DialogTrigger').locator('a.khs-widgets-dialog-trigger[data-dialog-open="contact-privacy"]')).toHaveText('privacy notice');
  // Server-only props: nothing of them is written into the page.
  for (const name of ['FileField', 'PasswordField', 'Dialog', 'DialogTrigger']) await expect(island(name)).toHaveAttribute('data-props', '{}');
  const sheets = await page.locator('head link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  expect(sheets.some((href) => href.startsWith(new URL(widgetsOrigin).origin))).toBe(true);
}

test.describe('contact form', () => {
  test('a visitor fills the form with the keyboard, attaches a file (its name shows) and sends it', async ({ page, stack, problems }) => {
    await openContactPage(page, stack.url);
    await islandsSettled(page);
    await expect(page.locator('[data-island="mf-widgets/PageWidgets"]')).toHaveAttribute('data-island-state', 'mounted');

    await page.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('E-mail', { exact: true })).toBeFocused();
    await page.keyboard.type('ada@example.org');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Message', { exact: true })).toBeFocused();
    await page.keyboard.type('Could you run a workshop on data journalism for our newsroom?');
    await page.keyboard.press('Tab');

    const file = page.getByLabel('Attach a file (optional)');
    await expect(file).toBeFocused();
    // The native file chooser is not scriptable by keys; choosing the file is the one pointer-free API call.
    await file.setInputFiles(BRIEF);
    await expect(page.locator('[data-file-name]')).toHaveText(BRIEF.name);
    await page.keyboard.press('Tab');

    const password = page.getByLabel('Request password (optional)');
    await expect(password).toBeFocused();
    await page.keyboard.type('a long request password');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(password).toHaveAttribute('type', 'text');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send request' })).toBeFocused();
    await page.keyboard.press('Enter');

    await expectConfirmation(page);
    // Failed resources are listed in failedResponses (the favicon is left out there, not in the console).
    expect(problems.failedResponses).toEqual([]);
    expect(problems.errors.filter((text) => !text.startsWith('Failed to load resource'))).toEqual([]);
  });

  test('errors are summarised at the top, linked to their fields, and the typed values are kept', async ({ page, stack }) => {
    await openContactPage(page, stack.url);
    await islandsSettled(page);
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('E-mail', { exact: true }).fill('ada-at-example.org');
    await page.getByLabel('Request password (optional)').fill('too short');
    await page.getByRole('button', { name: 'Send request' }).click();

    const summary = page.getByRole('alert');
    await expect(summary).toBeVisible();
    // Focused on load, so the next Tab reaches the first error's link.
    await expect(summary).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(summary.getByRole('link').first()).toBeFocused();
    await expect(summary.getByRole('link')).toHaveText([
      'Enter an e-mail address in the form name@example.com.',
      'Enter your message.',
      'The request password needs at least 12 characters, or leave it empty.',
    ]);
    await expect(summary.getByRole('link').first()).toHaveAttribute('href', '#contact-email');
    await expect(page).toHaveTitle(/^Error: /);

    const name = page.getByLabel('Name', { exact: true });
    const email = page.getByLabel('E-mail', { exact: true });
    const message = page.getByLabel('Message', { exact: true });
    await expect(name).toHaveValue('Ada Lovelace');
    await expect(name).not.toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveValue('ada-at-example.org');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/Enter an e-mail address/);
    await expect(message).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Request password (optional)')).toHaveValue('');

    await email.fill('ada@example.org');
    await message.fill('Please correct the date in the article about archives.');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectConfirmation(page);
  });

  test('works with JavaScript disabled: errors, then a request with an attachment', async ({ browser, stack }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await openContactPage(page, stack.url);
    // No script ran: what is there is mf-widgets' own server markup, styled by its stylesheet in the head.
    await expectWidgetsRenderedOnServer(page, stack.remotes['mf-widgets']);
    // No widget script: the toggle stays hidden, the privacy notice is an in-page section.
    await expect(page.getByRole('button', { name: 'Show password' })).toBeHidden();
    await expect(page.getByRole('link', { name: 'privacy notice' })).toHaveAttribute('href', '#contact-privacy');

    await page.getByLabel('Message', { exact: true }).fill('Kept without script');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('alert').getByRole('link')).toHaveText(['Enter your name.', 'Enter your e-mail address, so we can answer you.']);
    await expect(page.getByRole('alert')).toBeFocused();
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue('Kept without script');
    // The 422 page is rendered like the GET page: mf-widgets' fields, with the error at the field.
    await expect(page).toHaveTitle(/^Error: /);
    await expectWidgetsRenderedOnServer(page, stack.remotes['mf-widgets']);

    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('E-mail', { exact: true }).fill('grace@example.org');
    await page.getByLabel('Attach a file (optional)').setInputFiles(BRIEF);
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectConfirmation(page);
    await context.close();
  });
});

test.describe('contact form without mf-widgets on the server', () => {
  test('its server build throwing: the page keeps plain placeholder fields and the form still sends a file', async ({ browser, stack }) => {
    // A new release of mf-widgets whose server entry throws when loaded.
    const broken = remoteBuildVariant('mf-widgets', (dir) =>
      writeFileSync(path.join(dir, 'server', 'remoteEntry.js'), "throw new Error('broken server build');"),
    );
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      await openContactPage(context.pages()[0] ?? (await context.newPage()), stack.url);
      stack.serveRemote('mf-widgets', broken);
      await expect
        .poll(async () => (await (await fetch(new URL('/contact', stack.url))).text()).includes('data-widget="file-upload"'), { timeout: 15_000 })
        .toBe(false);
      const page = context.pages()[0]!;
      const response = await page.goto(new URL('/contact', stack.url).href);
      expect(response?.status()).toBe(200);
      await expect(page.locator('[data-island="mf-widgets/FileField"] input[type="file"][name="attachment"]')).toHaveCount(1);
      await expect(page.locator('[data-widget]')).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'privacy notice' })).toHaveAttribute('href', '#contact-privacy');
      await expect(page.getByRole('heading', { name: 'Privacy notice' })).toBeVisible();
      await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
      await page.getByLabel('E-mail', { exact: true }).fill('grace@example.org');
      await page.getByLabel('Message', { exact: true }).fill('Sent while the widgets remote is down.');
      await page.getByLabel('Attach a file (optional)').setInputFiles(BRIEF);
      await page.getByLabel('Request password (optional)').fill('a long request password');
      await page.getByRole('button', { name: 'Send request' }).click();
      await expectConfirmation(page);
    } finally {
      await context.close();
      stack.serveRemote('mf-widgets');
      rmSync(broken, { recursive: true, force: true });
    }
    await expect
      .poll(async () => (await (await fetch(new URL('/contact', stack.url))).text()).includes('data-widget="file-upload"'), { timeout: 15_000 })
      .toBe(true);
  });
});

test.describe('contact form accessibility', () => {
  // axe is injected as an inline script, which the site's CSP (rightly) refuses.
  test.use({ bypassCSP: true });


  test('the form, its error state and the confirmation have no axe-core violations', async ({ page, stack }) => {
    await openContactPage(page, stack.url);
    await islandsSettled(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('E-mail', { exact: true }).fill('nope');
    await page.getByLabel('Request password (optional)').fill('short');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await islandsSettled(page);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByLabel('E-mail', { exact: true }).fill('ada@example.org');
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectConfirmation(page);
    await islandsSettled(page);
    expect(await axeViolations(page)).toEqual([]);
  });
  test('the contact service stopped: the contact page is a readable error in the site layout, other pages work; started again: the form sends', async ({ page, stack }) => {
    await stack.stopService('contact');
    try {
      const response = await page.goto(new URL('/contact', stack.url).href);
      expect(response?.status()).toBe(503);
      await islandsSettled(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('The contact form is not available right now');
      await expect(page.locator('main')).toContainText('Nothing was sent');
      // The shell's layout and its header islands are all there.
      await expect(page.locator('.site-header')).toBeVisible();
      await expect(page.locator('footer').getByRole('link', { name: 'Contact' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      // Every other page is unaffected.
      const home = await page.goto(new URL('/', stack.url).href);
      expect(home?.status()).toBe(200);
      await expect(page.locator('main h2, main h1').first()).toBeVisible();
    } finally {
      await stack.startService('contact');
    }
    await openContactPage(page, stack.url);
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByLabel('E-mail', { exact: true }).fill('ada@example.org');
    await page.getByLabel('Message', { exact: true }).fill('Back again');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expectConfirmation(page);
  });
});
