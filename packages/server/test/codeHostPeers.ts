import { gitea } from './codeHostPeers/gitea.ts';
import { github } from './codeHostPeers/github.ts';
import { gitlab } from './codeHostPeers/gitlab.ts';
import { startCodeHostPeer } from './codeHostPeers/peer.ts';
import type { CodeHostPeer, PeerOptions } from './codeHostPeers/types.ts';

/**
 * Real HTTP servers on 127.0.0.1 that play GitHub, GitLab and Gitea/Forgejo for Wharf's sign-in:
 * the OAuth 2 authorization-code flow with PKCE (S256), the user and organization endpoints, and
 * the repository endpoints (list, read, add a webhook or a deploy key), answered in each
 * provider's documented shape. One flow, three route layouts.
 */
export type {
  CodeHostPeer,
  PeerEmail,
  PeerOptions,
  PeerRepository,
  PeerUser,
  RecordedRequest,
} from './codeHostPeers/types.ts';

/** GitHub (Enterprise Server layout): OAuth under `/login/oauth/…`, the API at `${url}/api/v3`. */
export function startGithubPeer(options: PeerOptions): Promise<CodeHostPeer> {
  return startCodeHostPeer(github, options);
}

/** GitLab: OAuth under `/oauth/…`, the API at `${url}/api/v4`; groups need the `read_api` scope. */
export function startGitlabPeer(options: PeerOptions): Promise<CodeHostPeer> {
  return startCodeHostPeer(gitlab, options);
}

/** Gitea or Forgejo: OAuth under `/login/oauth/…`, the API at `${url}/api/v1`. */
export function startGiteaPeer(options: PeerOptions): Promise<CodeHostPeer> {
  return startCodeHostPeer(gitea, options);
}
