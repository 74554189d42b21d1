import { allRoutes, type EventName, errorCodes, type Route, routePath, scopes } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { freshSite } from './accessFixtures.ts';
import { type AccessRule, accessRules, type Call } from './accessRules.ts';
import { type Answer, expectStatus, queryString, signedIn, TestClient } from './client.ts';
import { databases, SWEEP_TIMEOUT, startTestServer, type TestServer } from './harness.ts';
import { eventMark, eventNamesSince } from './snapshot.ts';
import { buildWorld, ROLES, type Role, type World } from './world.ts';

function expectedStatus(route: Route, rule: AccessRule, role: Role) {
  const special = rule.expect?.[role];
  if (special !== undefined) return special;
  if (rule.allow.includes(role)) return route.status;
  if (role === 'anonymous') return 401;
  if (role === 'outsider') return 404;
  return 403;
}

/** A caller by token: the client, and whose fixtures its calls use (a site token's, the owner's). */
interface TokenCaller {
  name: string;
  client: TestClient;
  role: Role;
}

/** Tokens of every kind: a person's with every scope, one with none, the site's own, another site's. */
async function tokenCallers(world: World): Promise<TokenCaller[]> {
  const apiToken = async (role: Role, tokenScopes: string[]) => {
    const body = { name: `sweep ${role}`, scopes: tokenScopes };
    const token = expectStatus(await world.clients[role].post('/api/v1/api-tokens', body), 200);
    return world.clients.anonymous.withToken(token.value);
  };
  const siteToken = async (siteId: string) => {
    const path = `/api/v1/sites/${siteId}/tokens`;
    const token = expectStatus(await world.clients.owner.post(path, { name: 'sweep' }), 200);
    return world.clients.anonymous.withToken(token.value);
  };
  return [
    { name: "a member's token", client: await apiToken('member', scopes), role: 'member' },
    { name: "a teammate's token", client: await apiToken('teammate', scopes), role: 'teammate' },
    { name: "an outsider's token", client: await apiToken('outsider', scopes), role: 'outsider' },
    { name: 'a token without scopes', client: await apiToken('owner', []), role: 'owner' },
    { name: "the site's token", client: await siteToken(world.site._id), role: 'owner' },
    { name: "another site's token", client: await siteToken((await freshSite(world))._id), role: 'owner' },
  ];
}

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The call with a body (or, for a GET, a query) no valid call has: JSON that does not parse, JSON
 * of the wrong shape, a broken multipart or tar body. Whoever is refused (401, 403, 404) with the
 * valid call must be refused the same with these: authorisation comes before validation.
 */
function malformedCalls(route: Route, call: Call): Call[] {
  if (route.method === 'get') {
    const shape = route.query instanceof z.ZodObject ? Object.keys(route.query.shape) : [];
    return shape.length > 0 ? [{ ...call, query: Object.fromEntries(shape.map((key) => [key, '!'])) }] : [];
  }
  if (route.multipart)
    return [{ ...call, body: '--x\r\nbroken', headers: { 'content-type': 'multipart/form-data; boundary=x' } }];
  if (route.binaryBody)
    return [{ ...call, body: 'not the announced bytes', headers: { 'content-type': route.binaryBody } }];
  const unparsable = { ...call, body: '{"', headers: JSON_TYPE };
  // A route that takes no body ignores one that parses: only JSON that does not parse is malformed there.
  return route.body ? [unparsable, { ...call, body: '["malformed"]', headers: JSON_TYPE }] : [unparsable];
}

const isRefusal = (status: number) => status === 401 || status === 403 || status === 404;

/** What differs between the refusal of a valid call and the answers to its malformed forms. */
function refusalMismatches(where: string, valid: Answer, malformed: Answer[]) {
  if (!isRefusal(valid.status)) return [];
  return malformed
    .filter((answer) => answer.status !== valid.status || answer.body?.code !== valid.body?.code)
    .map(
      (answer) =>
        `${where} with a malformed input: got ${answer.status} ${answer.body?.code}, with a valid one ${valid.status} ${valid.body?.code}`,
    );
}

async function sendAs(client: TestClient, route: Route, call: Call) {
  return client.request(
    route.method.toUpperCase(),
    routePath(route.path, call.params) + queryString(call.query),
    call.body,
    call.headers,
  );
}

async function send(world: World, role: Role, route: Route, call: Call) {
  const client = call.freshSession
    ? role === 'anonymous'
      ? new TestClient(world.url)
      : await signedIn(world.url, role)
    : world.clients[role];
  const query = queryString(call.query);
  return client.request(
    route.method.toUpperCase(),
    routePath(route.path, call.params) + query,
    call.body,
    call.headers,
  );
}

describe.each(databases)('access matrix on $name', ({ postgres }) => {
  let server: TestServer;
  let world: World;
  let rules: ReturnType<typeof accessRules>;

  beforeAll(async () => {
    // Builds are on, and no node runs them: a queued build stays queued, recording nothing more.
    server = await startTestServer({ postgres, env: { WHARF_BUILD_RUNTIME: 'podman', WHARF_ROLE: 'api,edge,worker' } });
    world = await buildWorld(server.url);
    rules = accessRules(await signedIn(server.url, 'joiner'));
  });
  afterAll(() => server?.close());

  it('implements every route of the contract', () => {
    const missing = allRoutes.filter(([, route]) => !server.app.implemented.has(route)).map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('has a rule for every route the server implements', () => {
    const implemented = allRoutes.filter(([, route]) => server.app.implemented.has(route)).map(([name]) => name);
    expect(implemented.filter((name) => !rules[name])).toEqual([]);
  });

  it(
    'answers every role exactly as the rules say, recording one event per mutation, and refuses malformed input alike',
    async () => {
      const mismatches: string[] = [];
      for (const [name, route] of allRoutes) {
        const rule = rules[name];
        if (!rule || !server.app.implemented.has(route)) continue;
        for (const role of ROLES) {
          const call = await rule.call(world, role);
          const before = await eventMark(server.app.db);
          const malformed = [];
          for (const variant of malformedCalls(route, call)) malformed.push(await send(world, role, route, variant));
          const answer = await send(world, role, route, call);
          mismatches.push(...refusalMismatches(`${name} as ${role}`, answer, malformed));
          const expected = expectedStatus(route, rule, role);
          if (answer.status !== expected) {
            mismatches.push(
              `${name} as ${role}: expected ${expected}, got ${answer.status} ${JSON.stringify(answer.body)}`,
            );
            continue;
          }
          const code = answer.body?.code as keyof typeof errorCodes | undefined;
          if (answer.status >= 400 && (code === undefined || errorCodes[code] !== answer.status)) {
            mismatches.push(`${name} as ${role}: ${answer.status} carries the code ${code}, not one of its status`);
          }
          const allowed = answer.status < 300;
          const recorded = (await eventNamesSince(server.app.db, before))
            .filter((event) => !(allowed && rule.refusalEvents?.includes(event as EventName)))
            .sort();
          const wanted = allowed ? [...(rule.events ?? [])].sort() : [];
          if (JSON.stringify(recorded) !== JSON.stringify(wanted)) {
            mismatches.push(`${name} as ${role}: events ${JSON.stringify(recorded)}, wanted ${JSON.stringify(wanted)}`);
          }
          if (answer.status < 300) await rule.after?.(world, role);
        }
      }
      expect(mismatches).toEqual([]);
    },
    SWEEP_TIMEOUT,
  );

  it(
    'answers an unknown id in the path with its 404 whatever the body or query holds',
    async () => {
      const mismatches: string[] = [];
      for (const [name, route] of allRoutes) {
        const rule = rules[name];
        if (!rule || !server.app.implemented.has(route)) continue;
        const call = await rule.call(world, 'owner');
        for (const key of Object.keys(call.params ?? {})) {
          const unknown = { ...call, params: { ...call.params, [key]: 'unknown0000000000' } };
          const malformed = [];
          for (const variant of malformedCalls(route, unknown))
            malformed.push(await send(world, 'owner', route, variant));
          const answer = await send(world, 'owner', route, unknown);
          mismatches.push(...refusalMismatches(`${name} with an unknown ${key}`, answer, malformed));
        }
      }
      expect(mismatches).toEqual([]);
    },
    SWEEP_TIMEOUT,
  );

  it(
    'refuses every kind of token with a malformed input exactly as with a valid one',
    async () => {
      const mismatches: string[] = [];
      let refusals = 0;
      const callers = await tokenCallers(world);
      for (const [name, route] of allRoutes) {
        const rule = rules[name];
        if (!rule || !server.app.implemented.has(route)) continue;
        // One valid call serves every token until one of them uses it up (fixtures cost, and form
        // posts are rate-limited per address).
        let shared: Call | null = null;
        for (const caller of callers) {
          const call: Call = shared ?? (await rule.call(world, caller.role));
          shared = call;
          const malformed = [];
          for (const variant of malformedCalls(route, call))
            malformed.push(await sendAs(caller.client, route, variant));
          const answer = await sendAs(caller.client, route, call);
          if (answer.status >= 500) mismatches.push(`${name} as ${caller.name}: ${answer.status}`);
          if (isRefusal(answer.status)) refusals++;
          mismatches.push(...refusalMismatches(`${name} as ${caller.name}`, answer, malformed));
          if (answer.status < 300) await rule.after?.(world, caller.role);
          if (answer.status < 300 && route.method !== 'get') shared = null;
        }
      }
      expect(mismatches).toEqual([]);
      // Most calls of most tokens are refusals: a sweep that met none compared nothing.
      expect(refusals).toBeGreaterThan(300);
    },
    SWEEP_TIMEOUT,
  );
});
