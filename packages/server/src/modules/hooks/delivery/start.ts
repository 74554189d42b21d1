import type { WharfApp } from '../../../wharfApp.ts';
import { hookFanOut } from './fanOut.ts';
import type { DescribeEnvelope } from './messages.ts';
import { hookSender } from './send.ts';

/** Events become hook jobs in the dispatcher's durable pass; the job runner sends them. */
export function startHookDeliveries(app: WharfApp) {
  const console = app.config.url.origin;
  // TODO(describe): replaced by the event sentences of events/describe.ts
  const describe: DescribeEnvelope = async (envelope) => ({ sentence: `Wharf event ${envelope.event}`, link: console });
  app.dispatcher.addDurable(hookFanOut);
  app.jobs.register('hook', hookSender({ ...app, describe }));
}
