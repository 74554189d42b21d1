import { describe, expect, it } from 'vitest';
import { releaseSource } from './source.ts';

const SHA = '1c7e2f0a9b8d7c6e5f4a3b2c1d0e9f8a7b6c5d4e';
const noGit = async () => null;

describe('where a release comes from', () => {
  it('reads a GitLab merge request pipeline', async () => {
    const env = {
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: SHA,
      CI_COMMIT_MESSAGE: 'Fix the footer\n',
      CI_COMMIT_AUTHOR: 'Grace Hopper <grace@example.com>',
      CI_COMMIT_REF_NAME: 'fix-footer',
      CI_PROJECT_URL: 'https://gitlab.example.com/web/shop',
      CI_MERGE_REQUEST_IID: '17',
      CI_PIPELINE_URL: 'https://gitlab.example.com/web/shop/-/pipelines/901',
    };
    expect(await releaseSource(env, {}, noGit)).toEqual({
      commit: SHA,
      message: 'Fix the footer',
      branch: 'fix-footer',
      author: 'Grace Hopper <grace@example.com>',
      commitUrl: `https://gitlab.example.com/web/shop/-/commit/${SHA}`,
      pullRequest: 17,
      pullRequestUrl: 'https://gitlab.example.com/web/shop/-/merge_requests/17',
      ci: 'GitLab CI',
      ciRunUrl: 'https://gitlab.example.com/web/shop/-/pipelines/901',
    });
  });

  it.each([
    [
      'Woodpecker',
      {
        CI: 'woodpecker',
        CI_COMMIT_SHA: SHA,
        CI_COMMIT_BRANCH: 'main',
        CI_PIPELINE_URL: 'https://ci.example.com/repos/1/pipeline/5',
      },
    ],
    [
      'Drone',
      {
        DRONE: 'true',
        DRONE_COMMIT_SHA: SHA,
        DRONE_COMMIT_BRANCH: 'main',
        DRONE_BUILD_LINK: 'https://drone.example.com/acme/shop/5',
      },
    ],
    [
      'CircleCI',
      {
        CIRCLECI: 'true',
        CIRCLE_SHA1: SHA,
        CIRCLE_BRANCH: 'main',
        CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/5',
      },
    ],
    [
      'Bitbucket Pipelines',
      {
        BITBUCKET_BUILD_NUMBER: '5',
        BITBUCKET_COMMIT: SHA,
        BITBUCKET_BRANCH: 'main',
        BITBUCKET_GIT_HTTP_ORIGIN: 'https://bitbucket.org/acme/shop',
      },
    ],
  ])('reads %s', async (ci, env) => {
    const source = await releaseSource(env, {}, noGit);
    expect(source).toMatchObject({ commit: SHA, branch: 'main', ci, ciRunUrl: expect.stringMatching(/^https:\/\//) });
  });

  it('takes flags over the CI, and git for what neither gives', async () => {
    const git = async () => ({ commit: SHA, author: 'Ada', message: 'From git' });
    expect(await releaseSource({}, { message: 'From the flag' }, git)).toEqual({
      commit: SHA,
      author: 'Ada',
      message: 'From the flag',
    });
    // git's commit is another one than the CI names (a merge commit checked out): its words are not this commit's.
    const env = { GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abcdef1234567' };
    expect(await releaseSource(env, {}, git)).toEqual({ commit: 'abcdef1234567', ci: 'GitHub Actions' });
  });

  it('leaves out what the server would refuse rather than failing the upload', async () => {
    const env = {
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: 'not-a-sha',
      CI_PROJECT_URL: 'javascript:alert(1)//',
      CI_PIPELINE_URL: 'ftp://ci.example.com/1',
      CI_COMMIT_MESSAGE: 'x'.repeat(5000),
    };
    const source = await releaseSource(env, {}, noGit);
    expect(source).toEqual({ message: 'x'.repeat(2000), ci: 'GitLab CI' });
  });
});
