import { feature } from '../../features/feature.ts';
import { compressionPool, compressionThreads, variantsSender } from './blobs/variants.ts';
import { releaseChore } from './collect/gc.ts';
import { releaseRoutes } from './routes.ts';
import { deployRoutes } from './upload/routes.ts';

/**
 * The release wing: uploads and releases; on a worker, the compressed variants of new files and
 * the housekeeping chore of retention and collection.
 */
export const releasesFeature = feature({
  name: 'releases',
  needs: [
    'access',
    'blobs',
    'config',
    'db',
    'deployMetrics',
    'fastify',
    'handle',
    'housekeeping',
    'jobs',
    'log',
    'node',
  ],
  routes(parts) {
    releaseRoutes(parts);
    deployRoutes(parts);
  },
  work(parts) {
    const compression = compressionPool(compressionThreads(parts.config.compressionThreads));
    parts.jobs.register('variants', variantsSender({ db: parts.db, blobs: parts.blobs, pool: compression }));
    // After the job runner's hook (app.ts registers it before any feature's): the jobs under way
    // finish their variants before the threads go.
    parts.fastify.addHook('onClose', () => compression.close());
    parts.housekeeping.add(releaseChore(parts));
  },
});
