import type { Frame, Page } from '@playwright/test';

import { expect } from './fixtures';

/** MailDev's inbox, which the run's gate sends its mail to (global-setup.ts). */
export const inboxUrl = `http://127.0.0.1:${process.env.E2E_MAIL_WEB_PORT}`;

/**
 * Opens the newest mail to `to` with `subject` in MailDev's inbox, as a reader would, and
 * answers the frame that shows its HTML.
 */
export async function openMail(page: Page, to: string, subject: string): Promise<Frame> {
  await page.goto(`${inboxUrl}/`);
  const listed = page.getByRole('button').filter({ hasText: to }).filter({ hasText: subject });
  await expect(async () => {
    await page.getByRole('button', { name: /Refresh emails/ }).click();
    await expect(listed.first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await listed.first().click();
  const shown = page.frameLocator('iframe').first();
  await expect(shown.getByRole('link').first()).toBeVisible();
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  if (!frame) throw new Error('MailDev shows the mail in no frame');
  return frame;
}
