import path from 'node:path';
import type { Reporter, SerializedError, TestModule, Vitest } from 'vitest/node';

const SHOWN = 15;

/**
 * Ends every run with where its time went (the 15 slowest files, with their test counts) and, last,
 * what failed, one line each: a CI log is often read from its tail only, and the default reporter
 * prints failures far above it.
 */
export class RunSummary implements Reporter {
  private root = '';

  onInit(vitest: Vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    this.printSlowest(modules);
    this.printFailures(modules, unhandledErrors);
  }

  private nameOf(module: TestModule) {
    return `${module.project.name}:${path.relative(module.project.config.root ?? this.root, module.moduleId)}`;
  }

  private printSlowest(modules: ReadonlyArray<TestModule>) {
    const timed = modules
      .map((module) => ({
        name: this.nameOf(module),
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

  private printFailures(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    const lines: string[] = [];
    for (const module of modules) {
      for (const error of module.errors()) lines.push(`${this.nameOf(module)}: ${firstLine(error)}`);
      for (const test of module.children.allTests('failed'))
        lines.push(`${this.nameOf(module)} > ${test.fullName}: ${firstLine(test.result().errors?.[0])}`);
    }
    for (const error of unhandledErrors) lines.push(`unhandled: ${firstLine(error)}`);
    if (lines.length === 0) return;
    console.log(`\n${lines.length} failed:`);
    for (const line of lines) console.log(`  ${line}`);
  }
}

function firstLine(error: SerializedError | undefined) {
  const text = error?.message ?? error?.name ?? 'no error message';
  return (text.split('\n')[0] ?? '').slice(0, 300);
}
