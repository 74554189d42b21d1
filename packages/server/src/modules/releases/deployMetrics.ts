import type { FastifyError } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { errorBody } from '../../http/errorHandler.ts';

/**
 * Deploys for /metrics: each release made (an upload, or a finalised incremental deploy), and each
 * deploy that failed, by the stable code its caller got (a bounded set: the contract's codes).
 */
export class DeployMetrics {
  private readonly outcomes: Counter<'outcome'>;
  private readonly failures: Counter<'code'>;

  constructor(registry: Registry) {
    this.outcomes = new Counter({
      name: 'wharf_deploys_total',
      help: 'Deploys by outcome: succeeded (a release was made) or failed.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    this.failures = new Counter({
      name: 'wharf_deploy_failures_total',
      help: 'Failed deploys by the error code their caller got.',
      labelNames: ['code'] as const,
      registers: [registry],
    });
    // Both outcomes from the start: a rate needs the zero before the first deploy.
    for (const outcome of ['succeeded', 'failed']) this.outcomes.inc({ outcome }, 0);
  }

  succeeded() {
    this.outcomes.inc({ outcome: 'succeeded' });
  }

  /**
   * Runs a step that ends the deploy when it fails (`ends`: every failure unless told), counting
   * its failure with the code the error handler gives it.
   */
  async failuresOf<T>(step: () => Promise<T>, ends: (error: unknown) => boolean = () => true): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (ends(error)) {
        this.outcomes.inc({ outcome: 'failed' });
        this.failures.inc({ code: errorBody(error as FastifyError).code });
      }
      throw error;
    }
  }
}
