import { authorizationServer } from './authorization.ts';
import { closeServer, listenOnLoopback } from './http.ts';
import type { Answer, CodeHostPeer, Dialect, PeerOptions, PeerSetUp, PeerUser, RecordedRequest } from './types.ts';

const notFound: Answer = { status: 404, body: { message: 'Not Found' } };

/** Starts one provider: the shared flow at the dialect's paths, and the dialect's API routes. */
export async function startCodeHostPeer(dialect: Dialect, options: PeerOptions): Promise<CodeHostPeer> {
  const users = new Map<string, PeerUser>();
  const orgIds = new Map<string, number>();
  const client = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    redirectUri: options.redirectUri,
    autoApprove: options.autoApprove ?? true,
  };
  const flow = authorizationServer(dialect, client, users);
  const requests: RecordedRequest[] = [];
  let base = '';

  const orgId = (name: string) => {
    if (!orgIds.has(name)) orgIds.set(name, 9000 + orgIds.size + 1);
    return orgIds.get(name)!;
  };

  const setUps: PeerSetUp[] = [];

  function callApi(request: RecordedRequest): Answer {
    const path = request.path.slice(dialect.apiPrefix.length);
    const exact = dialect.api[`${request.method} ${path}`];
    const matched = dialect.repositoryRoutes
      .map(([pattern, handle]) => ({ handle, match: pattern.exec(`${request.method} ${path}`) }))
      .find((candidate) => candidate.match);
    if (!exact && !matched) return notFound;
    const grant = flow.grantOf(request);
    if (!grant) return dialect.badCredentials;
    const call = {
      user: grant.user,
      scopes: grant.scopes,
      query: new URLSearchParams(request.query),
      base,
      orgId,
      method: request.method,
      path,
      body: request.body ? JSON.parse(request.body) : null,
      setUps,
    };
    return exact ? exact(call) : matched!.handle(call, matched!.match![1]!, matched!.match![2] ?? '');
  }

  const { url, server } = await listenOnLoopback(
    requests,
    (request) => {
      const route = `${request.method} ${request.path}`;
      if (route === `GET ${dialect.authorizePath}`) return flow.authorize(request);
      if (route === `POST ${dialect.authorizePath}`) return flow.decide(request);
      if (route === `POST ${dialect.tokenPath}`) return flow.token(request);
      if (request.path.startsWith(`${dialect.apiPrefix}/`)) return callApi(request);
      return notFound;
    },
    options.tls,
  );
  base = url;

  return {
    url,
    apiUrl: `${url}${dialect.apiPrefix}`,
    requests,
    addUser(user) {
      users.set(user.login, user);
      for (const org of user.orgs) orgId(org);
    },
    signInAs: flow.signInAs,
    denyNext: flow.denyNext,
    setRedirectUri(uri) {
      client.redirectUri = uri;
    },
    setAutoApprove(on) {
      client.autoApprove = on;
    },
    setUps,
    revokeTokens: flow.revokeAll,
    expireTokens: flow.expireAll,
    close: () => closeServer(server),
  };
}
