import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const SHOWN = 15;

/** Prints the 15 slowest test files after every run, with the test count: where the run's time went. */
export class SlowestFiles implements Reporter {
  private root = '';

  onInit(vitest: Vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const timed = modules
      .map((module) => ({
        name: `${module.project.name}:${path.relative(module.project.config.root ?? this.root, module.moduleId)}`,
        seconds: module.diagnostic().duration / 1000,
        tests: [...module.children.allTests()].length,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    if (timed.length === 0) return;
    const total = timed.reduce((sum, file) => sum + file.tests, 0);
    console.log(`\nThe ${Math.min(SHOWN, timed.length)} slowest of ${timed.length} test files (${total} tests):`);
    for (const file of timed.slice(0, SHOWN))
      console.log(`  ${file.seconds.toFixed(1).padStart(7)} s  ${file.name} (${file.tests} tests)`);
  }
}
