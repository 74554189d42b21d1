import { feature } from '../../features/feature.ts';
import { OutboundGuard } from '../../outbound/guard.ts';
import { emptyAllowList } from '../../outbound/privateAllowList.ts';
import { buildHookRoutes } from './buildHooks.ts';
import { buildRetentionChore } from './buildRetention.ts';
import { buildReportFanOut } from './reports/fanOut.ts';
import { forgeReportSender } from './reports/send.ts';
import { buildRoutes } from './routes.ts';
import { Builder } from './runner/builder.ts';
import { buildVariableRoutes } from './variables.ts';
import { webhookRoutes } from './webhooks/routes.ts';

/**
 * Building from repositories: a site's builds and build hooks on every node; on a node of the
 * builder role with a container runtime configured, the builder that runs them.
 */
export const buildsFeature = feature({
  name: 'builds',
  after: ['releases'],
  needs: [
    'access',
    'blobs',
    'config',
    'db',
    'deployMetrics',
    'dispatcher',
    'fastify',
    'handle',
    'housekeeping',
    'jobs',
    'log',
    'node',
    'sealer',
  ],
  routes(parts) {
    buildRoutes(parts);
    buildHookRoutes(parts);
    buildVariableRoutes(parts);
    webhookRoutes(parts);
  },
  work(parts) {
    parts.housekeeping.add(buildRetentionChore(parts.db));
    // Reports go where the repository is: the builds' own allow-list of private hosts applies.
    const guard = new OutboundGuard({
      allowPrivate: parts.config.allowPrivateUpstreams,
      allowList: parts.config.builds?.allowedPrivate ?? emptyAllowList('WHARF_BUILD_ALLOWED_PRIVATE'),
      extraCaCerts: parts.config.extraCaCerts,
      log: parts.log,
    });
    parts.dispatcher.addDurable(buildReportFanOut);
    parts.jobs.register('forgeReport', forgeReportSender({ ...parts, guard }));
    parts.fastify.addHook('onClose', async () => guard.close());
  },
  build(parts) {
    const settings = parts.config.builds;
    if (!settings) return;
    const guard = new OutboundGuard({
      allowPrivate: parts.config.allowPrivateUpstreams,
      allowList: settings.allowedPrivate,
      extraCaCerts: parts.config.extraCaCerts,
      log: parts.log,
    });
    const builder = new Builder(
      {
        release: parts,
        sealer: parts.sealer,
        settings,
        guard,
        settle: (seq) => parts.dispatcher.settled(seq, 5_000),
      },
      parts.node.instance,
      parts.log,
    );
    // A queued build starts at once, a cancelled one stops at once, on whichever node hears it.
    parts.dispatcher.addLive({
      name: 'builds',
      async consume(events) {
        for (const event of events) {
          if (event.name === 'site_build_queued') void builder.wake();
          if (event.name === 'site_build_cancelled') builder.cancel(JSON.parse(event.data).buildId);
        }
      },
    });
    // Before the database closes (onClose): the builds under way end as failed, and say so.
    parts.fastify.addHook('preClose', async () => {
      await builder.close();
      guard.close();
    });
    void builder.run();
  },
});
