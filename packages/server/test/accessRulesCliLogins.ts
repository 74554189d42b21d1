import type { RouteName } from '@wharf/contract';
import { type AccessRule, everyone, signedIn } from './accessFixtures.ts';
import { expectStatus, TestClient } from './client.ts';
import type { World } from './world.ts';

/** A sign-in of the wharf command nobody answered yet, started as the CLI does (signed out). */
async function pendingCliLogin(w: World) {
  const started = expectStatus(await new TestClient(w.url).post('/api/v1/cli-logins', { machine: 'ada@laptop' }), 200);
  return { login: started, params: { cliLoginId: started._id as string } };
}

/** `wharf login`: the CLI (anybody) starts and polls; any signed-in person answers a request they were given. */
export function cliLoginRules(): Partial<Record<RouteName, AccessRule>> {
  return {
    startCliLogin: { allow: everyone, call: () => ({ body: { machine: 'ada@laptop' } }) },
    getCliLogin: { allow: signedIn, call: async (w) => ({ params: (await pendingCliLogin(w)).params }) },
    approveCliLogin: {
      allow: signedIn,
      events: ['user_api_token_created'],
      call: async (w) => ({ params: (await pendingCliLogin(w)).params }),
    },
    cancelCliLogin: { allow: signedIn, call: async (w) => ({ params: (await pendingCliLogin(w)).params }) },
    claimCliLogin: {
      allow: everyone,
      call: async (w) => {
        const { login, params } = await pendingCliLogin(w);
        return { params, body: { secret: login.secret } };
      },
    },
  };
}
