import { z } from 'zod';
import { matching, requiredText } from '../validation.ts';
import { apiToken } from './apiToken.ts';
import { timestamp } from './common.ts';

/** The machine that asks, as its user sees it (`ada@laptop`): printable text, no line breaks. */
export const cliMachine = matching(/^[^\p{Cc}]+$/u, 200);

export const startCliLoginBody = z.object({ machine: cliMachine });

/** What `wharf login` is told: the page to open, the code to compare, and the secret that fetches the token. */
export const startedCliLogin = z.object({
  _id: z.string(),
  /** The console page where a signed-in user approves or cancels the sign-in. */
  url: z.string(),
  /** Shown both in the terminal and on the console page, so the user can check they match. */
  code: z.string(),
  /** Only the CLI holds it: fetching the token needs it, the page's address does not carry it. */
  secret: z.string(),
  expiresAt: timestamp,
});
export type StartedCliLogin = z.infer<typeof startedCliLogin>;

export const cliLoginStates = ['pending', 'approved', 'cancelled', 'claimed'] as const;

/** A sign-in request as the console shows it to the user asked to approve it. */
export const cliLogin = z.object({
  _id: z.string(),
  machine: z.string(),
  code: z.string(),
  /** The address the request came from, as the server saw it. */
  address: z.string(),
  state: z.enum(cliLoginStates),
  createdAt: timestamp,
  expiresAt: timestamp,
});
export type CliLogin = z.infer<typeof cliLogin>;

export const claimCliLoginBody = z.object({ secret: requiredText(200) });

/** The CLI's poll: still waiting, or the token, handed over exactly once. */
export const cliLoginClaim = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending'), expiresAt: timestamp }),
  z.object({ state: z.literal('approved'), token: apiToken }),
]);
export type CliLoginClaim = z.infer<typeof cliLoginClaim>;
