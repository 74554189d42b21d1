import type { BuildPhase, BuildPhaseName } from '@wharf/contract';
import type { Db } from '../../../db/schema.ts';
import { now } from '../../../lib/ids.ts';
import type { BuildLog } from './buildLog.ts';

/** What a phase found it had nothing to do (no lockfile, no build command). */
export const SKIPPED = Symbol('skipped');

const LABELS: Record<BuildPhaseName, string> = {
  clone: 'Clone',
  restoreCache: 'Restore cache',
  install: 'Install',
  build: 'Build',
  upload: 'Upload',
  saveCache: 'Save cache',
};

/** The phases of one build as they run, each kept on the build's row at its start and end (the page shows them live). */
export class Phases {
  private readonly phases: BuildPhase[] = [];

  constructor(
    private readonly db: Db,
    private readonly buildId: string,
    private readonly log: BuildLog,
  ) {}

  async run<T>(name: BuildPhaseName, work: () => Promise<T | typeof SKIPPED>): Promise<T | typeof SKIPPED> {
    const started = Date.now();
    const phase: BuildPhase = { name, state: 'running', startedAt: now(), durationMs: null };
    this.phases.push(phase);
    this.log.say(`── ${LABELS[name]}`);
    await this.keep();
    try {
      const result = await work();
      phase.state = result === SKIPPED ? 'skipped' : 'succeeded';
      return result;
    } catch (error) {
      phase.state = 'failed';
      throw error;
    } finally {
      phase.durationMs = Date.now() - started;
      if (phase.state !== 'skipped')
        this.log.say(`   ${LABELS[name]}: ${phase.state} in ${(phase.durationMs / 1000).toFixed(1)} s`);
      await this.keep();
    }
  }

  private async keep() {
    await this.db
      .updateTable('builds')
      .set({ phases: JSON.stringify(this.phases) })
      .where('id', '=', this.buildId)
      .execute();
  }
}
