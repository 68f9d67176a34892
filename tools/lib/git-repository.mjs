// Git repositories with release tags, made by the tests that sync a git source (no network).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs git in `cwd` as a fixed author; its output. */
export function git(cwd, ...args) {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
}

/** A repository with a release per tag: README and CHANGELOG change, a docs/ page comes in 1.1. */
export function makeRepository(dir, tags) {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  for (const tag of tags) {
    writeFileSync(join(dir, 'README.md'), `# Guide\n\nRelease ${tag}.\n`);
    writeFileSync(join(dir, 'CHANGELOG.md'), `# Changes\n\n## ${tag}\n`);
    writeFileSync(join(dir, 'src.ts'), `export const version = '${tag}';\n`);
    if (tag >= 'v1.1') {
      mkdirSync(join(dir, 'docs'), { recursive: true });
      writeFileSync(join(dir, 'docs', 'setup.md'), `# Setup\n\nFor ${tag}.\n`);
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '--quiet', '-m', tag);
    git(dir, 'tag', '-a', tag, '-m', tag);
  }
}
