import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../test/harness.ts';
import { FEATURES } from '../features.ts';
import { checkOrder, feature, registerFeatures } from './feature.ts';
import type { Parts } from './parts.ts';

describe('features as the composition registers them', () => {
  it('refuses a list where a feature comes before one it relies on, or a name repeats', () => {
    expect(() => checkOrder([{ name: 'invites', after: ['mail'] }, { name: 'mail' }])).toThrow(
      'The feature invites must come after mail, which it relies on',
    );
    expect(() => checkOrder([{ name: 'invites', after: ['mail'] }])).toThrow('must come after mail');
    expect(() => checkOrder([{ name: 'orgs' }, { name: 'orgs' }])).toThrow('The feature orgs is listed twice');
    expect(() => checkOrder([{ name: 'mail' }, { name: 'invites', after: ['mail'] }])).not.toThrow();
  });

  it("accepts Wharf's own list", () => {
    expect(() => checkOrder(FEATURES)).not.toThrow();
    expect(FEATURES.every((declared) => declared.needs.length > 0)).toBe(true);
  });

  it('hands each feature the parts it names and no others, its work only on a worker node, its start-up not in a cluster worker', async () => {
    const server = await startTestServer();
    try {
      const seen: Record<string, string[]> = {};
      const watcher = (name: string) =>
        feature({
          name,
          needs: ['db', 'log'],
          routes: (parts) => {
            seen[`${name} routes`] = Object.keys(parts).sort();
          },
          start: async (parts) => {
            seen[`${name} start`] = Object.keys(parts).sort();
          },
          work: (parts) => {
            seen[`${name} work`] = Object.keys(parts).sort();
          },
        });
      const parts: Parts = server.app;
      await registerFeatures([watcher('api node')], parts, { api: true, start: true, worker: false, builder: false });
      await registerFeatures([watcher('worker node')], parts, {
        api: false,
        start: true,
        worker: true,
        builder: false,
      });
      // A cluster worker: the node's start-up ran in its primary.
      await registerFeatures([watcher('cluster worker')], parts, {
        api: true,
        start: false,
        worker: false,
        builder: false,
      });
      expect(seen).toEqual({
        'api node routes': ['db', 'log'],
        'api node start': ['db', 'log'],
        'worker node routes': ['db', 'log'],
        'worker node start': ['db', 'log'],
        'worker node work': ['db', 'log'],
        'cluster worker routes': ['db', 'log'],
      });
    } finally {
      await server.close();
    }
  });
});
