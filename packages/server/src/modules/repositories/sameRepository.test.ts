import { type CodeHostRepository, gitHostOf, isRepositoryOf } from '@wharf/contract';
import { describe, expect, it } from 'vitest';

const shop: CodeHostRepository = {
  fullName: 'acme/shop',
  httpsUrl: 'https://github.com/acme/shop.git',
  sshUrl: 'git@github.com:acme/shop.git',
  webUrl: 'https://github.com/acme/shop',
  defaultBranch: 'main',
  private: true,
  canSetUp: true,
  pushedAt: null,
};

describe('which repository a site builds from', () => {
  it('is the code host’s repository whichever address the site was connected with', () => {
    for (const url of [
      'https://github.com/acme/shop.git',
      'https://github.com/acme/shop',
      'https://GitHub.com/Acme/Shop/',
      'git@github.com:acme/shop.git',
      'ssh://git@github.com/acme/shop.git',
      'ssh://git@github.com:22/acme/shop',
    ])
      expect(isRepositoryOf(url, shop), url).toBe(true);
  });

  it('is not another repository, another host, or a path of which it is a part', () => {
    for (const url of [
      'https://github.com/acme/shop-docs.git',
      'https://gitlab.com/acme/shop.git',
      'git@github.com:acme/shop/sub.git',
      'https://github.com/acme',
      'not a url',
    ])
      expect(isRepositoryOf(url, shop), url).toBe(false);
  });

  it('names the host of a git URL and of a code host’s address alike', () => {
    expect(gitHostOf('git@gitlab.example.com:team/site.git')).toBe('gitlab.example.com');
    expect(gitHostOf('https://gitlab.example.com/gitlab')).toBe('gitlab.example.com');
    expect(gitHostOf('https://GitHub.com')).toBe('github.com');
    expect(gitHostOf('http://127.0.0.1:3000')).toBe('127.0.0.1');
    expect(gitHostOf('nothing')).toBeNull();
  });
});
