import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answers,
  containerEnvironment,
  DEPLOY,
  imageEnvironment,
  type KubeObject,
  kubernetesCopy,
  operatorSecrets,
  REPOSITORY,
  renderKustomization,
  writeEnvFile,
} from '../../test/deployFiles.ts';
import { loadConfig } from '../config/load.ts';
import { CLOSE_MARGIN_MS } from './lifecycle.ts';

const works = answers('kubectl', 'version', '--client');
if (!works) console.warn('!! The Kubernetes manifests suite needs kubectl (its kustomize renders them): SKIPPED');

const README = readFileSync(path.join(REPOSITORY, 'README.md'), 'utf8');
const deployments = (objects: KubeObject[]) => objects.filter((object) => object.kind === 'Deployment');
const wharfContainer = (deployment: KubeObject) =>
  deployment.spec.template.spec.containers.find((container: any) => container.name === 'wharf');
const podLabels = (deployment: KubeObject): Record<string, string> => deployment.spec.template.metadata.labels;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);
/** Kubernetes' CPU quantities: `2`, `500m`. */
const cpus = (quantity: string) => (quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity));

/** What every Wharf pod promises, on one node or several. */
function expectWharfPod(deployment: KubeObject, objects: KubeObject[]) {
  const pod = deployment.spec.template.spec;
  const container = wharfContainer(deployment);
  const environment = containerEnvironment(container, objects);
  const config = loadConfig({ ...imageEnvironment(), ...environment });
  expect(Object.keys(environment).filter((name) => !README.includes(`\`${name}\``))).toEqual([]);

  expect(pod.securityContext).toMatchObject({
    runAsNonRoot: true,
    runAsUser: 65532,
    runAsGroup: 65532,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  expect(container.securityContext).toEqual({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });

  const port = container.ports.find((entry: any) => entry.containerPort === config.port);
  expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: port.name });
  expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: port.name });
  expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(config.shutdownGraceMs + CLOSE_MARGIN_MS);

  const mounts = Object.fromEntries(container.volumeMounts.map((mount: any) => [mount.mountPath, mount.name]));
  const volume = (mountPath: string) => pod.volumes.find((entry: any) => entry.name === mounts[mountPath]);
  expect(volume('/tmp').emptyDir).toBeDefined();
  expect(volume(config.dataDir)).toBeDefined();

  const { requests, limits } = container.resources;
  expect(Object.keys(requests).sort()).toEqual(['cpu', 'memory']);
  expect(limits.memory).toBeDefined();
  // Node counts the machine's CPUs, not the limit's: each process count is set to fit the limit.
  expect(Number(environment.WHARF_WORKERS)).toBeLessThanOrEqual(cpus(limits.cpu));
  if (config.roles.worker) expect(Number(environment.WHARF_COMPRESSION_THREADS)).toBeLessThanOrEqual(cpus(limits.cpu));
  return { environment, config, volume };
}

/** The Service an Ingress rule's host goes to, and the Deployment whose pods it selects. */
function routeOf(objects: KubeObject[], host: string) {
  const ingress = objects.find((object) => object.kind === 'Ingress')!;
  const rule = ingress.spec.rules.find((entry: any) => entry.host === host);
  const backend = rule?.http.paths[0].backend.service;
  const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === backend?.name);
  const deployment = deployments(objects).find((item) => service && selects(service.spec.selector, podLabels(item)));
  expect(deployment, `the Deployment behind ${host}`).toBeDefined();
  const portNames = wharfContainer(deployment!).ports.map((entry: any) => entry.name);
  expect(portNames).toContain(service!.spec.ports.find((entry: any) => entry.name === backend.port.name).targetPort);
  return deployment!;
}

describe.skipIf(!works)('the Kubernetes manifests (deploy/kubernetes)', () => {
  const folders: string[] = [];
  let objects: KubeObject[];
  let secrets: Record<string, string>;

  beforeAll(async () => {
    const folder = await kubernetesCopy();
    folders.push(folder);
    secrets = operatorSecrets();
    await writeEnvFile(folder, 'secret.env', secrets);
    objects = await renderKustomization(folder);
  }, 60_000);
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('render nothing until the operator writes secret.env, whose example Wharf refuses to start with', async () => {
    const bare = await kubernetesCopy();
    folders.push(bare);
    await expect(renderKustomization(bare)).rejects.toThrow(/secret\.env/);
    const example = parseEnv(readFileSync(path.join(DEPLOY, 'kubernetes/secret.env.example'), 'utf8'));
    expect(Object.keys(example).sort()).toEqual(Object.keys(secrets).sort());
    expect(() => loadConfig(example)).toThrow(/WHARF_SECRET must be at least 32 characters/);
  });

  it('make the one Secret from exactly what the operator wrote', () => {
    const generated = objects.filter((object) => object.kind === 'Secret');
    expect(generated).toHaveLength(1);
    const decoded = Object.entries(generated[0]!.data!).map(([key, value]) => [
      key,
      Buffer.from(value, 'base64').toString(),
    ]);
    expect(Object.fromEntries(decoded)).toEqual(secrets);
  });

  it('run each role in a Deployment of its own, two API and two edge nodes, each pod hardened, probed and drained', () => {
    const byRole: Record<string, KubeObject> = Object.fromEntries(
      deployments(objects).map((item) => [podLabels(item)['app.kubernetes.io/component'], item]),
    );
    expect(Object.keys(byRole).sort()).toEqual(['api', 'edge', 'worker']);
    expect(byRole.edge!.spec.replicas).toBe(2);
    expect(byRole.api!.spec.replicas).toBe(2);
    for (const [role, deployment] of Object.entries(byRole)) {
      const { config, volume } = expectWharfPod(deployment, objects);
      expect(config.roles, role).toEqual({
        api: role === 'api',
        edge: role === 'edge',
        worker: role === 'worker',
        builder: false,
      });
      expect(config.secret).toBe(secrets.WHARF_SECRET);
      expect(config.databaseUrl).toBe(secrets.DATABASE_URL);
      expect(config.storage.kind).toBe('s3');
      expect(config.redisUrl).toMatch(/^redis:/);
      // Stateless: nothing of a node outlives its pod.
      expect(volume(config.dataDir).emptyDir).toBeDefined();
    }
  });

  it('keep an API and an edge node through voluntary disruptions, and let a drain go on', () => {
    const budgets = objects.filter((object) => object.kind === 'PodDisruptionBudget');
    for (const role of ['api', 'edge']) {
      const deployment = deployments(objects).find((item) => podLabels(item)['app.kubernetes.io/component'] === role)!;
      const budget = budgets.find((item) => selects(item.spec.selector.matchLabels, podLabels(deployment)));
      expect(budget?.spec.minAvailable, role).toBeGreaterThanOrEqual(1);
      expect(budget?.spec.minAvailable, role).toBeLessThan(deployment.spec.replicas);
    }
  });

  it("route the console's host to the API nodes and every site's host to the edge nodes", () => {
    const settings = objects.find((object) => object.kind === 'ConfigMap')!.data!;
    const api = routeOf(objects, new URL(settings.WHARF_URL!).hostname);
    const edge = routeOf(objects, `*.${new URL(settings.WHARF_SITES_URL!).hostname}`);
    const rolesOf = (deployment: KubeObject) =>
      loadConfig(containerEnvironment(wharfContainer(deployment), objects)).roles;
    expect(rolesOf(api)).toEqual({ api: true, edge: false, worker: false, builder: false });
    expect(rolesOf(edge)).toEqual({ api: false, edge: true, worker: false, builder: false });
  });

  describe('the single-node variant (single-node/)', () => {
    let single: KubeObject[];
    beforeAll(async () => {
      single = await renderKustomization(path.join(folders[0]!, 'single-node'));
    }, 60_000);

    it('runs one Wharf with every role, its data on a claim, the old pod gone before the new one starts', () => {
      const [deployment, ...others] = deployments(single);
      expect(others).toEqual([]);
      expect(deployment!.spec.replicas).toBe(1);
      expect(deployment!.spec.strategy).toEqual({ type: 'Recreate' });
      const { config, volume } = expectWharfPod(deployment!, single);
      expect(config.roles).toEqual({ api: true, edge: true, worker: true, builder: true });
      expect(config.databaseUrl).toBeNull();
      const claim = volume(config.dataDir).persistentVolumeClaim.claimName;
      expect(single.some((object) => object.kind === 'PersistentVolumeClaim' && object.metadata.name === claim)).toBe(
        true,
      );
      // Wharf generates its secret into that volume: no Secret to write, none shipped.
      expect(single.filter((object) => object.kind === 'Secret')).toEqual([]);
    });

    it("routes the console's host and every site's host to it", () => {
      const settings = single.find((object) => object.kind === 'ConfigMap')!.data!;
      routeOf(single, new URL(settings.WHARF_URL!).hostname);
      routeOf(single, `*.${new URL(settings.WHARF_SITES_URL!).hostname}`);
    });
  });
});
