import { randomBytes } from 'node:crypto';

import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { policy } from '@portal/access';

import { GROUP_NAME_PATTERN, TOKEN_PATTERN, TOKEN_PREFIX } from './src/names.js';
import * as schemas from './src/schemas.js';

describe('the API contract', () => {
  it('names a pattern every group of the access policy fits', () => {
    expect(policy.groupNames.length).toBeGreaterThan(0);
    for (const name of policy.groupNames) expect(name).toMatch(GROUP_NAME_PATTERN);
    expect('Staff').not.toMatch(GROUP_NAME_PATTERN);
  });

  it('describes the tokens the server makes: the prefix and 32 random bytes', () => {
    expect(`${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`).toMatch(TOKEN_PATTERN);
    expect(`${TOKEN_PREFIX}${randomBytes(31).toString('base64url')}`).not.toMatch(TOKEN_PATTERN);
  });

  it("compiles every schema with Fastify's own validator and serialiser", async () => {
    const app = Fastify();
    for (const [name, schema] of Object.entries(schemas))
      app.post(`/${name}`, { schema: { body: schema, response: { 200: schema } } }, async () => ({}));
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });

  it('refuses what the server refuses: extra fields, a token life over the most, a wrong method', async () => {
    const app = Fastify({ ajv: { customOptions: { coerceTypes: false, removeAdditional: false } } });
    app.post('/session', { schema: { body: schemas.SessionStart } }, async () => ({ ok: true }));
    app.post('/tokens', { schema: { body: schemas.TokenCreate } }, async () => ({ ok: true }));
    app.post('/invitations', { schema: { body: schemas.InvitationBody } }, async () => ({ ok: true }));
    const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object });
    expect((await post('/session', { idToken: 'x' })).statusCode).toBe(200);
    expect((await post('/session', { idToken: 'x', uid: 'forged' })).statusCode).toBe(400);
    expect((await post('/tokens', { name: 'laptop', days: 90 })).statusCode).toBe(200);
    expect((await post('/tokens', { name: 'laptop', days: 91 })).statusCode).toBe(400);
    expect((await post('/tokens', { name: '   ', days: 7 })).statusCode).toBe(400);
    expect(
      (await post('/invitations', { email: 'a@b.example', groups: ['partner'], method: 'password' })).statusCode,
    ).toBe(200);
    expect((await post('/invitations', { email: 'a@b.example', groups: [], method: 'password' })).statusCode).toBe(400);
    expect((await post('/invitations', { email: 'a@b.example', groups: ['partner'], method: 'fax' })).statusCode).toBe(
      400,
    );
    await app.close();
  });

  it('serialises an answer with exactly the fields the contract names', async () => {
    const app = Fastify();
    app.get('/session', { schema: { response: { 200: schemas.SessionAnswer } } }, async () => ({
      email: 'dev@partner-studio.example',
      groups: ['partner'],
      units: ['account', 'blog'],
      uid: 'never-sent',
    }));
    const answer = await app.inject({ method: 'GET', url: '/session' });
    expect(answer.json()).toEqual({
      email: 'dev@partner-studio.example',
      groups: ['partner'],
      units: ['account', 'blog'],
    });
    await app.close();
  });
});
