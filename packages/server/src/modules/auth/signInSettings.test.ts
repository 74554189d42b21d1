import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES, loadConfig } from '../../config/load.ts';
import { ConfigError } from '../../config/types.ts';

const signIn = (env: Record<string, string>) => loadConfig(env).signIn;
const problemOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('sign-in settings', () => {
  it('offer the password form only, and let everybody create organizations, when nothing is set', () => {
    expect(signIn({})).toEqual({ passwords: true, codeHosts: {}, oidc: null, orgCreators: { everyone: true } });
  });

  it('take github.com and gitlab.com by default, a server of your own when given, and allow-lists ignoring case', () => {
    const settings = signIn({
      WHARF_GITHUB_CLIENT_ID: 'id',
      WHARF_GITHUB_CLIENT_SECRET: 'secret',
      WHARF_GITHUB_ORGS: 'Acme, acme-labs',
      WHARF_GITLAB_CLIENT_ID: 'id',
      WHARF_GITLAB_CLIENT_SECRET: 'secret',
      WHARF_GITEA_CLIENT_ID: 'id',
      WHARF_GITEA_CLIENT_SECRET: 'secret',
      WHARF_GITEA_URL: 'https://codeberg.org',
    });
    expect(settings.codeHosts.github).toMatchObject({
      baseUrl: new URL('https://github.com'),
      allowedGroups: ['acme', 'acme-labs'],
    });
    expect(settings.codeHosts.gitlab?.baseUrl.href).toBe('https://gitlab.com/');
    expect(settings.codeHosts.gitea?.baseUrl.href).toBe('https://codeberg.org/');
  });

  it('refuse a provider set up halfway, naming what is missing', () => {
    expect(problemOf({ WHARF_GITHUB_CLIENT_ID: 'id' })).toContain(
      'WHARF_GITHUB_CLIENT_ID and WHARF_GITHUB_CLIENT_SECRET must both be set',
    );
    expect(problemOf({ WHARF_GITLAB_GROUPS: 'acme' })).toContain(
      'WHARF_GITLAB_CLIENT_ID and WHARF_GITLAB_CLIENT_SECRET must be set',
    );
    expect(problemOf({ WHARF_GITEA_CLIENT_ID: 'id', WHARF_GITEA_CLIENT_SECRET: 's' })).toContain(
      'WHARF_GITEA_URL must name',
    );
    expect(problemOf({ WHARF_OIDC_ISSUER: 'https://id.example.com' })).toContain(
      'WHARF_OIDC_ISSUER, WHARF_OIDC_CLIENT_ID and WHARF_OIDC_CLIENT_SECRET must all be set',
    );
    expect(problemOf({ WHARF_OIDC_ISSUER: 'not a url' })).toContain('WHARF_OIDC_ISSUER must be the issuer URL');
  });

  it('read an OpenID Connect provider with its defaults, and refuse scopes without openid', () => {
    const oidc = {
      WHARF_OIDC_ISSUER: 'https://id.example.com/realms/acme',
      WHARF_OIDC_CLIENT_ID: 'wharf',
      WHARF_OIDC_CLIENT_SECRET: 's',
    };
    expect(signIn(oidc).oidc).toMatchObject({
      scopes: ['openid', 'profile', 'email'],
      name: 'single sign-on',
      groupsClaim: 'groups',
      allowedGroups: [],
    });
    expect(
      signIn({ ...oidc, WHARF_OIDC_NAME: 'Keycloak', WHARF_OIDC_ALLOWED_GROUPS: 'Wharf-Users' }).oidc,
    ).toMatchObject({
      name: 'Keycloak',
      allowedGroups: ['wharf-users'],
    });
    expect(problemOf({ ...oidc, WHARF_OIDC_SCOPES: 'profile email' })).toContain(
      'WHARF_OIDC_SCOPES must include openid',
    );
  });

  it('read the organization creators as users and groups of providers, and refuse anything else', () => {
    expect(
      signIn({ WHARF_ORG_CREATORS: 'user:in-memory:Admin, group:github:acme group:oidc:/Platform' }).orgCreators,
    ).toEqual({
      everyone: false,
      users: [{ provider: 'in-memory', login: 'admin' }],
      groups: [
        { provider: 'github', group: 'acme' },
        { provider: 'oidc', group: '/platform' },
      ],
    });
    expect(signIn({ WHARF_ORG_CREATORS: '*' }).orgCreators).toEqual({ everyone: true });
    expect(problemOf({ WHARF_ORG_CREATORS: 'alice' })).toContain('WHARF_ORG_CREATORS entry "alice" must be');
    expect(problemOf({ WHARF_ORG_CREATORS: 'user:bitbucket:alice' })).toContain('"user:bitbucket:alice"');
  });

  it('turn the password form off when asked', () => {
    expect(signIn({ WHARF_PASSWORD_SIGN_IN: 'off' }).passwords).toBe(false);
    expect(problemOf({ WHARF_PASSWORD_SIGN_IN: 'no' })).toContain('WHARF_PASSWORD_SIGN_IN must be on or off');
  });
});

describe('the README', () => {
  it('documents every variable Wharf reads', () => {
    const readme = readFileSync(new URL('../../../../../README.md', import.meta.url), 'utf8');
    expect(
      ENVIRONMENT_VARIABLES.filter((name) => !readme.includes(`\`${name}\``) && !readme.includes(`${name},`)),
    ).toEqual([]);
  });
});
