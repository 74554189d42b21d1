#!/usr/bin/env node
// npm test: the lint, the type checks and the tests side by side. The tests mostly wait on servers,
// child processes and a browser, so the checks' CPU work fits beside them; one after the other they
// added minutes to every run. Each check's output is printed when it ends; the tests' as they go.
// Arguments go to Vitest (`npm test -- packages/cli`).
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = (name) => path.join(import.meta.dirname, '..', 'node_modules', '.bin', name);

/** Runs a command; answers its exit code, and its output when `quiet` (printed by the caller). */
function run(name, command, args, { quiet }) {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (quiet) {
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
    }
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code, signal) => {
      const seconds = Math.round((performance.now() - startedAt) / 1000);
      const status = code ?? (signal ? 1 : 0);
      resolve({ name, status, output, seconds });
    });
  });
}

function report({ name, status, output, seconds }) {
  const verdict = status === 0 ? 'passed' : `FAILED (exit ${status})`;
  console.log(`\n── ${name} ${verdict} in ${seconds} s`);
  if (status !== 0 || output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
}

const checks = [
  run('lint (biome check .)', bin('biome'), ['check', '.'], { quiet: true }).then((result) => {
    report(result);
    return result;
  }),
  run('type checks (npm run typecheck)', 'npm', ['run', '-s', 'typecheck'], { quiet: true }).then((result) => {
    report(result);
    return result;
  }),
  run('import rules (npm run rules)', 'npm', ['run', '-s', 'rules'], { quiet: true }).then((result) => {
    report(result);
    return result;
  }),
  // A report to act on, not a gate: an export nobody imports yet is not a broken build.
  run('unused files and exports (npm run unused)', bin('knip'), ['--no-progress', '--no-exit-code'], {
    quiet: true,
  }).then((result) => {
    report(result);
    return result;
  }),
];
const tests = await run('tests (vitest run)', bin('vitest'), ['run', ...process.argv.slice(2)], { quiet: false });
const results = [...(await Promise.all(checks)), tests];
console.log('');
for (const { name, status, seconds } of results)
  console.log(`${status === 0 ? 'passed' : 'FAILED'}  ${name}, ${seconds} s`);
process.exit(results.every((result) => result.status === 0) ? 0 : 1);
