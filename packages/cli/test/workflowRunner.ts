import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);

/**
 * A local stand-in for the runners of GitHub Actions (Forgejo and Gitea run the same files) and
 * GitLab CI, as far as the README's examples and Wharf's own action use them: a job's `env` and
 * `variables`, `${{ … }}` expressions (names, quoted strings, `==`, `!=`, `&&`), steps' `if`, `run`
 * and `script` lines in a shell, composite actions with their inputs and outputs. `uses` of other
 * actions are answered by the test (`actions/checkout` puts the project in place).
 */

export type Context = Record<string, unknown>;
export type Uses = (action: string, workspace: string) => Promise<void>;

/** The value of a dotted name in the context (`github.event.action`), or of a quoted string. */
function termValue(term: string, context: Context): unknown {
  const quoted = /^'(.*)'$/.exec(term);
  if (quoted) return quoted[1];
  return term.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], context);
}

export function evaluate(expression: string, context: Context): unknown {
  const all = expression.split('&&').map((part) => part.trim());
  if (all.length > 1) return all.every((part) => evaluate(part, context));
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expression.trim());
  if (!comparison) return termValue(expression.trim(), context);
  const [, left = '', operator, right = ''] = comparison;
  const same = String(termValue(left.trim(), context) ?? '') === String(termValue(right.trim(), context) ?? '');
  return operator === '==' ? same : !same;
}

export const interpolate = (text: string, context: Context) =>
  text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => String(evaluate(expression, context) ?? ''));

const interpolateAll = (values: Record<string, unknown> | undefined, context: Context) =>
  Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, interpolate(String(value), context)]));

/** The `key=value` lines a step wrote to its GITHUB_OUTPUT file. */
async function outputsOf(file: string) {
  const text = await readFile(file, 'utf8').catch(() => '');
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

export interface RunnerMachine {
  /** What the runner's shell gets besides the job's own variables: PATH, HOME, npm's settings. */
  env: Record<string, string>;
  workspace: string;
  /** The local folder of an action a step `uses`, or null for one the test answers itself. */
  localAction(uses: string): string | null;
  uses: Uses;
}

async function shell(script: string, env: Record<string, string>, cwd: string) {
  const { stdout, stderr } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd,
    env,
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout + stderr;
}

/** Runs a composite action's steps with its inputs (defaults, then `with`), and answers its outputs. */
async function runComposite(
  folder: string,
  given: Record<string, string>,
  context: Context,
  machine: RunnerMachine,
  env: Record<string, string>,
) {
  const action = parse(await readFile(path.join(folder, 'action.yml'), 'utf8'));
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries<{ default?: string }>(action.inputs ?? {}))
    inputs[name] = given[name] ?? interpolate(String(input.default ?? ''), context);
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const inner = { ...context, inputs, steps };
  let log = '';
  for (const step of action.runs.steps) {
    const outputFile = path.join(await mkdtemp(path.join(machine.workspace, '..', 'output-')), 'out');
    await writeFile(outputFile, '');
    log += await shell(
      interpolate(step.run, inner),
      { ...env, ...interpolateAll(step.env, inner), GITHUB_ACTION_PATH: folder, GITHUB_OUTPUT: outputFile },
      machine.workspace,
    );
    if (step.id) steps[step.id] = { outputs: await outputsOf(outputFile) };
  }
  const outputs = interpolateAll(
    Object.fromEntries(
      Object.entries<{ value: string }>(action.outputs ?? {}).map(([name, output]) => [name, output.value]),
    ),
    inner,
  );
  return { log, outputs };
}

/** Runs one job of a GitHub Actions workflow; answers what it printed and each step's outputs by id. */
export async function runActionsJob(job: Record<string, any>, context: Context, machine: RunnerMachine) {
  const env = { ...machine.env, ...interpolateAll(job.env, context) };
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  let log = '';
  for (const step of job.steps as Record<string, any>[]) {
    const here = { ...context, env, steps };
    if (step.if !== undefined && !evaluate(String(step.if).replace(/^\$\{\{|\}\}$/g, ''), here)) continue;
    if (step.uses) {
      const folder = machine.localAction(step.uses);
      if (!folder) {
        await machine.uses(step.uses, machine.workspace);
        continue;
      }
      const composite = await runComposite(folder, interpolateAll(step.with, here), here, machine, env);
      log += composite.log;
      if (step.id) steps[step.id] = { outputs: composite.outputs };
      continue;
    }
    log += await shell(interpolate(step.run, here), { ...env, ...interpolateAll(step.env, here) }, machine.workspace);
  }
  return { log, steps };
}

/** Runs one job of a GitLab CI file: its `script` lines, in order, with its variables. */
export async function runGitlabJob(
  job: Record<string, any>,
  variables: Record<string, string>,
  machine: RunnerMachine,
) {
  let log = '';
  const env = { ...machine.env, ...variables, ...(job.variables ?? {}) };
  for (const line of job.script as string[]) log += await shell(line, env, machine.workspace);
  return log;
}
