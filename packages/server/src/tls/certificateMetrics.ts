import { Gauge, type Registry } from 'prom-client';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { CertificateStore } from './certificateStore.ts';

/**
 * When each certificate a process serves expires, for /metrics: the operator's (per name it
 * covers), the custom domains' manual ones and those obtained over ACME. Registered where TLS is
 * served (a single process, or each cluster worker, whose figures agree: the node shows the
 * earliest). While the database is away the figures stay as last read.
 */
export function registerCertificateMetrics(registry: Registry, certificates: CertificateStore) {
  return new Gauge({
    name: 'wharf_certificate_expiry_timestamp_seconds',
    help: 'When a certificate Wharf serves expires (Unix time), by name and source (operator, manual, acme).',
    labelNames: ['name', 'source'] as const,
    aggregator: 'min',
    registers: [registry],
    async collect() {
      let served: Awaited<ReturnType<CertificateStore['served']>>;
      try {
        served = await certificates.served();
      } catch (error) {
        if (isDatabaseUnavailable(error)) return;
        throw error;
      }
      // A certificate no longer served (a domain removed) leaves no series behind.
      this.reset();
      for (const { name, source, notAfter } of served) this.set({ name, source }, notAfter.getTime() / 1000);
    },
  });
}
