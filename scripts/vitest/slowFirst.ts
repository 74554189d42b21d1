import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds a file took in a full run on a loaded 2-core machine, as the slowest-files report at the
 * end of every run prints them (`project:path`). A fresh clone has no results cache: without these,
 * the container image's test (minutes) could start last and hold the run open alone.
 */
const KNOWN: Record<string, number> = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'knownDurations.json'), 'utf8'),
);

/** A file this long sets the run's length: it starts before every shorter file of any project. */
const LONG_SECONDS = 30;

/**
 * Runs the longest files first, whatever their project, so that the last minutes of a run are not
 * one long file on one worker while the others idle: the measured duration from Vitest's results
 * cache when there is one, else the committed one, else the file's size as a guess.
 *
 * The short files then run in one block per project. A project whose files share a worker process
 * (isolate: false) keeps that worker only while the next file in the queue is of the same project:
 * with projects interleaved, nearly every short file started a fresh worker that evaluated the
 * server's sources again (ci51: 448 s of summed import time). Among long files a fresh worker's
 * start costs little beside the file, and interleaving them keeps the journeys beside the server's
 * suites rather than after them.
 */
export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const expected = new Map(files.map((file) => [file, this.expectedSeconds(file)]));
    const longestFirst = [...files].sort((a, b) => expected.get(b)! - expected.get(a)!);
    const long = longestFirst.filter((file) => expected.get(file)! >= LONG_SECONDS);
    const blocks = new Map<string, TestSpecification[]>();
    for (const file of longestFirst.filter((file) => expected.get(file)! < LONG_SECONDS))
      blocks.set(file.project.name, [...(blocks.get(file.project.name) ?? []), file]);
    const total = (block: TestSpecification[]) => block.reduce((sum, file) => sum + expected.get(file)!, 0);
    const shortBlocks = [...blocks.values()].sort((a, b) => total(b) - total(a));
    return [...long, ...shortBlocks.flat()];
  }

  private expectedSeconds(file: TestSpecification) {
    const key = `${file.project.name}:${path.relative(file.project.config.root, file.moduleId)}`;
    const cached = this.ctx.cache.getFileTestResults(
      `${file.project.name}:${path.relative(this.ctx.config.root, file.moduleId)}`,
    );
    if (cached && !cached.failed) return cached.duration / 1000;
    if (key in KNOWN) return KNOWN[key]!;
    // Unknown files are mostly quick: a file's kilobytes stand for its seconds, below any known one.
    return Math.min(statSync(file.moduleId).size / 1024, 20);
  }
}
