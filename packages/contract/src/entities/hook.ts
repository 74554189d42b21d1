import { z } from 'zod';
import { eventNames } from '../events.ts';
import { messages } from '../messages.ts';
import { email, requiredText, text } from '../validation.ts';
import { timestamp } from './common.ts';

const url = requiredText().refine((value) => URL.canParse(value) && /^https?:/.test(value), 'Must be an http(s) URL');
const event = z.enum(eventNames, { error: 'Unknown event' });
const hookName = text();

// A hook that hears no event would never be called: refused rather than kept as a silent no-op.
const hookBase = { name: hookName, events: z.array(event).min(1, messages.hookEventsRequired).max(200) };

export const hookBody = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('email'), ...hookBase, config: z.object({ to: email }) }),
    z.object({ type: z.literal('mattermost'), ...hookBase, config: z.object({ url }) }),
    z.object({ type: z.literal('slack'), ...hookBase, config: z.object({ url }) }),
    z.object({ type: z.literal('web'), ...hookBase, config: z.object({ url, secret: requiredText().optional() }) }),
  ],
  {
    // The issue's input is the whole body; the type is what is missing or wrong.
    error: (issue) =>
      (issue.input as { type?: unknown } | undefined)?.type === undefined
        ? messages.required
        : 'Must be email, mattermost, slack or web',
  },
);
export type HookBody = z.infer<typeof hookBody>;

export const hook = z.object({
  _id: z.string(),
  type: z.enum(['email', 'mattermost', 'slack', 'web']),
  name: z.string(),
  events: z.array(z.string()),
  createdAt: timestamp,
  config: z.object({
    to: z.string().optional(),
    url: z.string().optional(),
    secret: z.string().optional(),
  }),
});
export type Hook = z.infer<typeof hook>;

export const hookDelivery = z.object({
  _id: z.string(),
  success: z.boolean(),
  date: timestamp,
  type: z.string(),
  data: z.unknown(),
});
export type HookDelivery = z.infer<typeof hookDelivery>;
