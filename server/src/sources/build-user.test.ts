import { describe, expect, it } from 'vitest';

import { buildUserOf } from './build-user.js';

const PASSWD = [
  'root:x:0:0:root:/root:/bin/bash',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  'node:x:1000:1000::/home/node:/bin/sh',
].join('\n');

describe('the user a build runs as when the gate is root', () => {
  it('is the container’s node user unless one is named, and none on a system without it', () => {
    expect(buildUserOf(undefined, PASSWD)).toEqual({ name: 'node', uid: 1000, gid: 1000, home: '/home/node' });
    expect(buildUserOf(undefined, PASSWD.replace(/\nnode:.*/, ''))).toBeNull();
  });

  it('is the user named, by name or by uid:gid, with the home folder the system gives it', () => {
    expect(buildUserOf('nobody', PASSWD)).toEqual({ name: 'nobody', uid: 65534, gid: 65534, home: null });
    expect(buildUserOf('1000:1000', PASSWD)).toEqual({ name: 'node', uid: 1000, gid: 1000, home: '/home/node' });
    expect(buildUserOf('2000:2000', PASSWD)).toEqual({ name: '2000:2000', uid: 2000, gid: 2000, home: null });
  });

  it('is never root, and never a user the system lacks', () => {
    expect(buildUserOf('root', PASSWD)).toEqual({ error: expect.stringMatching(/not root/) });
    expect(buildUserOf('0:1000', PASSWD)).toEqual({ error: expect.stringMatching(/not root/) });
    expect(buildUserOf('builder', PASSWD)).toEqual({ error: expect.stringMatching(/does not have/) });
  });
});
