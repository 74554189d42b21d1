import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../test/harness.ts';
import { LockLost } from './oneNodeAtATime.ts';

describe("housekeeping's rounds", () => {
  it('runs every chore in the order added; one that fails stops none of the others, and the round fails with it', async () => {
    const server = await startTestServer({ captureLog: true });
    try {
      const { housekeeping } = server.app;
      const ran: string[] = [];
      housekeeping.add({
        name: 'a chore that fails',
        run: async () => {
          ran.push('failing');
          throw new Error('the disk is full');
        },
      });
      housekeeping.add({ name: 'a later chore', run: async ({ thorough }) => void ran.push(`later ${thorough}`) });
      await expect(housekeeping.round(new Date(), { thorough: false })).rejects.toThrow('1 housekeeping chores failed');
      expect(ran).toEqual(['failing', 'later false']);
      expect(
        server.logLines.some((line) => line.includes('a chore that fails') && line.includes('the disk is full')),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('stops a round at once when its lock is lost', async () => {
    const server = await startTestServer();
    try {
      const { housekeeping } = server.app;
      const ran: string[] = [];
      const held = new AbortController();
      housekeeping.add({
        name: 'a chore whose lock goes',
        run: async () => {
          ran.push('first');
          held.abort(new LockLost('housekeeping', new Error('connection terminated')));
          held.signal.throwIfAborted();
        },
      });
      housekeeping.add({ name: 'a later chore', run: async () => void ran.push('later') });
      await expect(housekeeping.round(new Date(), { held: held.signal })).rejects.toBeInstanceOf(LockLost);
      expect(ran).toEqual(['first']);
    } finally {
      await server.close();
    }
  });
});
