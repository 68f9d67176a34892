// Starts a throw-away private npm registry (Verdaccio, from the project's devDependencies) for
// the sync's tests: loopback, a free port, storage and users in the test's folder, no uplinks
// (anything not published to it is a 404), and only signed-in users may read or publish.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort } from './ports.mjs';
import { answers, startProcess } from './process.mjs';

const verdaccio = fileURLToPath(new URL('../../node_modules/.bin/verdaccio', import.meta.url));

/** Starts Verdaccio in `work`; `addUser` answers a token, `publish` publishes a folder with npm itself. */
export async function startVerdaccio({ work }) {
  const port = await freePort();
  const registry = `http://127.0.0.1:${port}/`;
  const config = join(work, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(work, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(work, 'htpasswd')}`,
      '    max_users: 10',
      'packages:',
      "  '**':",
      '    access: $authenticated',
      '    publish: $authenticated',
      'log: { type: stdout, format: json, level: error }',
      '',
    ].join('\n'),
  );
  const server = startProcess(process.execPath, [verdaccio, '--config', config, '--listen', `127.0.0.1:${port}`], {
    name: `Verdaccio on port ${port}`,
    stdout: 'collect',
    stderr: 'collect',
  });
  await server.waitUntil(answers(`${registry}-/ping`), { timeoutMs: 30_000 });

  /** Adds a user as `npm adduser` does, and answers the token the registry gives for it. */
  const addUser = async (name, password) => {
    const response = await fetch(`${registry}-/user/org.couchdb.user:${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, type: 'user', roles: [] }),
    });
    const body = await response.json();
    if (!response.ok || !body.token) throw new Error(`adding ${name}: ${response.status} ${JSON.stringify(body)}`);
    return body.token;
  };

  /**
   * Writes `files` (package.json among them) into a folder of `work` and publishes it with npm
   * and `token`, under the dist-tag `tag` (npm asks for one when a lower version comes after a higher).
   */
  const publish = (files, token, { tag = undefined } = {}) => {
    const manifest = JSON.parse(files['package.json']);
    const dir = join(work, `publish-${manifest.name.replace('/', '+')}-${manifest.version}`);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, '.npmrc'), `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`);
    execFileSync(
      'npm',
      ['publish', '--userconfig', join(dir, '.npmrc'), '--registry', registry, ...(tag ? ['--tag', tag] : [])],
      {
        cwd: dir,
        stdio: 'pipe',
        env: { ...process.env, npm_config_registry: registry },
      },
    );
  };

  /** Publishes one release of a typed package: a README and `dist/index.d.ts` as its `types`, what the sync's reference reads. */
  const publishTyped = ({ name, version, description, readme, declarations, tag }, token) =>
    publish(
      {
        'package.json': JSON.stringify({ name, version, description, license: 'UNLICENSED', types: 'dist/index.d.ts' }),
        'README.md': readme,
        'dist/index.d.ts': declarations,
        'dist/index.js': 'export {};\n',
      },
      token,
      { tag },
    );

  /**
   * Publishes a tarball made by hand, as a hostile publisher could: `files` (paths below
   * `package/`, any name the file system takes) and `links` (path → target, symbolic links)
   * packed with tar, under the registry manifest `manifest` (name and version), whatever the
   * tarball's own package.json says. npm's client would check and normalise what this skips.
   */
  const publishTarball = async ({ manifest, files, links = {} }, token) => {
    const dir = join(work, `tarball-${manifest.name.replace('/', '+')}-${manifest.version}`);
    rmSync(dir, { recursive: true, force: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, 'package', path, '..'), { recursive: true });
      writeFileSync(join(dir, 'package', path), text);
    }
    for (const [path, target] of Object.entries(links)) {
      mkdirSync(join(dir, 'package', path, '..'), { recursive: true });
      symlinkSync(target, join(dir, 'package', path));
    }
    const file = `${dir}.tgz`;
    execFileSync('tar', ['-czf', file, '-C', dir, 'package']);
    const data = readFileSync(file);
    const base = manifest.name.split('/').pop();
    const attachment = `${base}-${manifest.version}.tgz`;
    const dist = {
      shasum: createHash('sha1').update(data).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
      tarball: `${registry}${manifest.name}/-/${attachment}`,
    };
    const response = await fetch(`${registry}${manifest.name.replace('/', '%2f')}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        _id: manifest.name,
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: { [manifest.version]: { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist } },
        _attachments: {
          [attachment]: {
            content_type: 'application/octet-stream',
            data: data.toString('base64'),
            length: data.length,
          },
        },
      }),
    });
    if (!response.ok)
      throw new Error(`publishing ${manifest.name}@${manifest.version}: ${response.status} ${await response.text()}`);
  };

  /** A project's .npmrc lines that read `scope` (`@tvco`) from this registry with `token`. */
  const npmrc = (scope, token) =>
    `${scope}:registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`;

  return { registry, addUser, publish, publishTyped, publishTarball, npmrc, stop: () => server.stop() };
}
