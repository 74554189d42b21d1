import { allRoutes, errorCodes, type Route, routePath } from '@wharf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessRule, accessRules, type Call } from './accessRules.ts';
import { queryString, signedIn, TestClient } from './client.ts';
import { databases, SWEEP_TIMEOUT, startTestServer, type TestServer } from './harness.ts';
import { eventIds, eventNamesSince } from './snapshot.ts';
import { buildWorld, ROLES, type Role, type World } from './world.ts';

function expectedStatus(route: Route, rule: AccessRule, role: Role) {
  const special = rule.expect?.[role];
  if (special !== undefined) return special;
  if (rule.allow.includes(role)) return route.status;
  if (role === 'anonymous') return 401;
  if (role === 'outsider') return 404;
  return 403;
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
    server = await startTestServer({ postgres });
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
    'answers every role exactly as the rules say, recording one event per mutation',
    async () => {
      const mismatches: string[] = [];
      for (const [name, route] of allRoutes) {
        const rule = rules[name];
        if (!rule || !server.app.implemented.has(route)) continue;
        for (const role of ROLES) {
          const call = await rule.call(world, role);
          const before = await eventIds(server.app.db);
          const answer = await send(world, role, route, call);
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
          const recorded = (await eventNamesSince(server.app.db, before)).sort();
          const wanted = answer.status < 300 ? [...(rule.events ?? [])].sort() : [];
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
});
