import { createServer } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startMailCatcher, type MailCatcher } from '../../tools/lib/mail-catcher.mjs';
import { Mailer } from './mail.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the mailer', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(async () => {
    await catcher?.stop();
  });

  it('hands each message to the SMTP server, from the configured sender', async () => {
    const logged: string[] = [];
    const mailer = new Mailer({
      smtpUrl: catcher.smtpUrl,
      from: 'Docs <docs@norigin.example>',
      log: { info: (_o, message) => logged.push(message), warn: (_o, message) => logged.push(message) },
    });
    mailer.send({ to: 'reader@partner.example', subject: 'Your invitation', text: 'Choose your password.' });
    await mailer.sent();
    mailer.close();
    expect(logged).toEqual(['mail sent']);
    const message = (await catcher.messages()).find((m) => m.subject === 'Your invitation');
    expect(message?.to.map((to) => to.address)).toEqual(['reader@partner.example']);
    expect(message?.from.map((from) => from.address)).toEqual(['docs@norigin.example']);
    expect(message?.text).toContain('Choose your password.');
  });

  it('logs a message it could not send, with its recipient and reason, and never throws', async () => {
    const warnings: Record<string, unknown>[] = [];
    const mailer = new Mailer({
      smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
      from: 'docs@norigin.example',
      log: { info: () => undefined, warn: (object) => warnings.push(object) },
    });
    expect(() => mailer.send({ to: 'reader@partner.example', subject: 'Lost', text: '…' })).not.toThrow();
    await mailer.sent();
    mailer.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ to: 'reader@partner.example', subject: 'Lost' });
    expect(String(warnings[0]?.reason)).toMatch(/ECONNREFUSED|connect/i);
  });
});
