import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { siteFolder } from '../../test/siteFolder.ts';
import { walkFolder } from './walkFolder.ts';

describe('the files of a folder to upload', () => {
  it('lists every file by its release path, dot files included, version control and desktop litter left out', async () => {
    const root = await siteFolder({
      'index.html': '<h1>Hi</h1>',
      'assets/app.js': 'app',
      '.wharf.yml': 'forms: []\n',
      '.well-known/security.txt': 'Contact: mailto:security@example.com',
      '.git/HEAD': 'ref: refs/heads/main',
      'assets/.DS_Store': 'finder',
      'Thumbs.db': 'explorer',
    });
    expect((await walkFolder(root)).map((file) => file.path)).toEqual([
      '.well-known/security.txt',
      '.wharf.yml',
      'assets/app.js',
      'index.html',
    ]);
  });

  it('follows links to their content, not back up the tree, and skips links to nothing', async () => {
    const root = await siteFolder({ 'shared/logo.svg': '<svg/>' });
    await symlink(path.join(root, 'shared/logo.svg'), path.join(root, 'logo.svg'));
    await symlink(path.join(root, 'shared'), path.join(root, 'alias'));
    await symlink(root, path.join(root, 'shared/loop'));
    await symlink(path.join(root, 'missing'), path.join(root, 'dangling'));
    await mkdir(path.join(root, 'empty'));
    expect((await walkFolder(root)).map((file) => file.path)).toEqual([
      'alias/logo.svg',
      'logo.svg',
      'shared/logo.svg',
    ]);
  });

  it('refuses a link to a file or a folder outside the folder, naming the link', async () => {
    const outside = await siteFolder({ 'secret.txt': 'not for the web' });
    for (const target of [path.join(outside, 'secret.txt'), outside]) {
      const root = await siteFolder({ 'index.html': '<h1>Hi</h1>' });
      await symlink(target, path.join(root, 'leak'));
      await expect(walkFolder(root)).rejects.toThrow(`leak is a link to ${target}, outside ${root}`);
    }
  });
});
