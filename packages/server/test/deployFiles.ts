import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments, stringify } from 'yaml';

const run = promisify(execFile);

export const REPOSITORY = path.resolve(import.meta.dirname, '../../..');
export const DEPLOY = path.join(REPOSITORY, 'deploy');

/** Whether a command answers here: the suites that need one say so, and skip, without it. */
export const answers = (command: string, ...args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/**
 * The environment the image itself sets (the Containerfile's last stage: `ENV NAME=value …`), which
 * every container of it starts with: WHARF_DATA_DIR, PORT.
 */
export function imageEnvironment(): Record<string, string> {
  const containerfile = readFileSync(path.join(REPOSITORY, 'Containerfile'), 'utf8');
  const runtime = containerfile.slice(containerfile.lastIndexOf('\nFROM '));
  const lines = runtime.split('\n').filter((line) => line.startsWith('ENV '));
  return Object.fromEntries(lines.flatMap((line) => line.slice(4).trim().split(/\s+/)).map((pair) => pair.split('=')));
}

/** A Kubernetes object as `kubectl kustomize` renders it; each test reads the fields it checks. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

/** The objects of a kustomization, rendered offline by kubectl's own kustomize. */
export async function renderKustomization(dir: string): Promise<KubeObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', dir], { maxBuffer: 16 * 1024 * 1024 });
  return parseAllDocuments(stdout).map((document) => document.toJS() as KubeObject);
}

/** A secret.env as an operator writes it: every key of secret.env.example, with values of its own. */
export function operatorSecrets(): Record<string, string> {
  return {
    WHARF_SECRET: randomBytes(36).toString('base64url'),
    DATABASE_URL: `postgres://wharf:${randomBytes(12).toString('hex')}@postgres.wharf.svc:5432/wharf`,
    AWS_ACCESS_KEY_ID: randomBytes(10).toString('hex'),
    AWS_SECRET_ACCESS_KEY: randomBytes(20).toString('hex'),
  };
}

export const envFileText = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([key, value]) => `${key}=${value}\n`)
    .join('');

/** deploy/kubernetes copied to a folder of its own, so that the test writes its secret.env there. */
export async function kubernetesCopy(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'wharf-kube-'));
  // What git holds: never a secret.env the developer wrote for a cluster of theirs.
  await cp(path.join(DEPLOY, 'kubernetes'), folder, {
    recursive: true,
    filter: (source) => path.basename(source) !== 'secret.env',
  });
  return folder;
}

/** The values a pod's container sees: its ConfigMaps' and Secrets' (envFrom), then its own `env`. */
export function containerEnvironment(container: any, objects: KubeObject[]): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const reference = source.configMapRef ?? source.secretRef;
    const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
    const object = objects.find((item) => item.kind === kind && item.metadata.name === reference.name);
    if (!object) throw new Error(`${kind} ${reference.name} is not among the rendered objects`);
    for (const [key, value] of Object.entries(object.data ?? {}))
      environment[key] = kind === 'Secret' ? Buffer.from(value, 'base64').toString('utf8') : value;
  }
  for (const entry of container.env ?? []) environment[entry.name] = entry.value;
  return environment;
}

/** A compose file as compose itself reads it: variables interpolated, anchors merged, checked against its schema. */
export interface ComposeFile {
  services: Record<string, any>;
  networks?: Record<string, any>;
  volumes?: Record<string, any>;
}

/**
 * `docker-compose config` (Debian's) of `file` with exactly the variables given: no .env file of
 * the developer's and no variable of this process's, but PATH. Rejects with compose's own message.
 */
export async function composeConfig(file: string, variables: Record<string, string>): Promise<ComposeFile> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'wharf-compose-'));
  try {
    const noDotEnv = await writeEnvFile(folder, 'empty.env', {});
    const { stdout } = await run(
      'docker-compose',
      ['--env-file', noDotEnv, '--file', file, '--project-directory', path.dirname(file), 'config'],
      { env: { PATH: process.env.PATH, ...variables } },
    );
    return parse(stdout) as ComposeFile;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The environment compose gives a service, with the values compose writes as numbers made strings. */
export function serviceEnvironment(service: any): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value ?? '')]),
  );
}

/** `45s`, `1m30s`: a compose duration in milliseconds. */
export function durationMs(value: string): number {
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g))
    total += Number(amount) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  return total;
}

/** A folder holding `values` as an env file, for compose's --env-file or kustomize's generators. */
export async function writeEnvFile(folder: string, name: string, values: Record<string, string>) {
  const file = path.join(folder, name);
  await writeFile(file, envFileText(values));
  return file;
}

/** What podman 4.3's `kube play` runs; it has no Service, Ingress or Namespace. */
const PODMAN_KINDS = ['Deployment', 'PersistentVolumeClaim', 'ConfigMap'];

/**
 * The single-node manifests as podman's `kube play` can run them here: the image `image`, Wharf's
 * port published on 127.0.0.1:`port` (podman publishes a container's hostPort), `settings` merged
 * into the ConfigMap, and every name made this run's own (`suffix`), the volumes' too. Answers the
 * rendered file and the names podman gives the container and the claim's volume.
 */
export async function singleNodeForPodman(options: {
  image: string;
  port: number;
  settings: Record<string, string>;
  suffix: string;
}) {
  const folder = await kubernetesCopy();
  const base = parse(readFileSync(path.join(folder, 'single-node/kustomization.yaml'), 'utf8'));
  const at = options.image.lastIndexOf(':');
  const overlay = {
    resources: ['../single-node'],
    nameSuffix: options.suffix,
    images: [
      { name: base.images[0].newName, newName: options.image.slice(0, at), newTag: options.image.slice(at + 1) },
    ],
    configMapGenerator: [
      {
        name: 'wharf-settings',
        behavior: 'merge',
        literals: Object.entries(options.settings).map(([key, value]) => `${key}=${value}`),
      },
    ],
    patches: [
      {
        target: { kind: 'Deployment' },
        patch: JSON.stringify([
          { op: 'add', path: '/spec/template/spec/containers/0/ports/0/hostPort', value: options.port },
          { op: 'add', path: '/spec/template/spec/containers/0/ports/0/hostIP', value: '127.0.0.1' },
        ]),
      },
    ],
  };
  await mkdir(path.join(folder, 'podman'));
  await writeFile(path.join(folder, 'podman/kustomization.yaml'), stringify(overlay));
  const objects = await renderKustomization(path.join(folder, 'podman'));
  const deployment = objects.find((object) => object.kind === 'Deployment')!;
  const claim = objects.find((object) => object.kind === 'PersistentVolumeClaim')!;
  // podman names an emptyDir's volume after it: two runs side by side would share it.
  const emptyDirs = deployment.spec.template.spec.volumes.filter((volume: any) => volume.emptyDir);
  for (const volume of emptyDirs) {
    for (const mount of deployment.spec.template.spec.containers[0].volumeMounts)
      if (mount.name === volume.name) mount.name += options.suffix;
    volume.name += options.suffix;
  }
  const file = path.join(folder, 'play.yaml');
  const played = objects.filter((object) => PODMAN_KINDS.includes(object.kind));
  await writeFile(file, played.map((object) => stringify(object)).join('---\n'));
  return { folder, file, container: `${deployment.metadata.name}-pod-0-wharf`, volume: claim.metadata.name };
}
