import { feature } from '../features/feature.ts';
import { mailSender } from './send.ts';

/** Mail (invitations, form submissions): on a worker, the job that sends it. */
export const mailFeature = feature({
  name: 'mail',
  needs: ['jobs', 'log', 'mailer', 'sealer'],
  work: (parts) => parts.jobs.register('mail', mailSender(parts)),
});
