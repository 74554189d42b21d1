import { consoleLink, type DescribableEvent, describeEvent } from '../../../events/describe.ts';
import { lookUpEventNames } from '../../../events/nameBook.ts';
import type { PartsOf } from '../../../features/parts.ts';
import type { Envelope } from './envelope.ts';
import { hookFanOut } from './fanOut.ts';
import type { DescribeEnvelope } from './messages.ts';
import { hookSender } from './send.ts';

/** The event an envelope was made from, as the sentences read it (a ping has no outbox row). */
function eventOf({ event, data }: Envelope): DescribableEvent {
  const { orgId, teamId, siteId, actorId, userId: _userId, ...own } = data as Record<string, string | undefined>;
  return {
    name: event,
    org_id: orgId ?? null,
    team_id: teamId ?? null,
    site_id: siteId ?? null,
    actor_id: actorId ?? null,
    data: JSON.stringify(own),
  };
}

/** Events become hook jobs in the dispatcher's durable pass; the job runner sends them. */
export function startHookDeliveries(
  parts: PartsOf<'config' | 'db' | 'dispatcher' | 'hookOutbound' | 'jobs' | 'mailer' | 'sealer'>,
) {
  const origin = parts.config.url.origin;
  // Names are read when the message is written: a retry an hour later says what things are called then.
  const describe: DescribeEnvelope = async (envelope) => {
    const event = eventOf(envelope);
    const book = await lookUpEventNames(parts.db, [event]);
    const path = consoleLink(event, book);
    return { sentence: describeEvent(event, book), link: path ? origin + path : null };
  };
  parts.dispatcher.addDurable(hookFanOut);
  parts.jobs.register('hook', hookSender({ ...parts, outbound: parts.hookOutbound, describe }));
}
