import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  answers,
  type ComposeFile,
  composeConfig,
  DEPLOY,
  durationMs,
  imageEnvironment,
  REPOSITORY,
  serviceEnvironment,
} from '../../test/deployFiles.ts';
import { NGINX } from '../../test/nginx.ts';
import { loadConfig } from '../config/load.ts';
import { CLOSE_MARGIN_MS } from './lifecycle.ts';

const run = promisify(execFile);
const works = answers('docker-compose', 'version');
if (!works) console.warn('!! The compose files suite needs docker-compose (apt-get install docker-compose): SKIPPED');

const README = readFileSync(path.join(REPOSITORY, 'README.md'), 'utf8');
/** docker-compose is a Python program: a few seconds a run on a busy machine. */
const COMPOSE_TIMEOUT = 120_000;
const SINGLE_NODE = path.join(DEPLOY, 'compose.yaml');
const MULTI_NODE = path.join(DEPLOY, 'compose.multi-node.yaml');
const BALANCER_CONF = path.join(DEPLOY, 'compose/nginx.conf');
/** What the operator must choose for the reference layout; compose refuses to start without each. */
const operatorChoices = () => ({
  WHARF_SECRET: randomBytes(36).toString('base64url'),
  POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
  S3_ACCESS_KEY: randomBytes(10).toString('hex'),
  S3_SECRET_KEY: randomBytes(20).toString('hex'),
});

/** What every Wharf service promises: a setting Wharf starts with, a read-only root, restarts, time to drain. */
function expectWharfService(service: any) {
  const environment = serviceEnvironment(service);
  expect(Object.keys(environment).filter((name) => !README.includes(`\`${name}\``))).toEqual([]);
  const config = loadConfig({ ...imageEnvironment(), ...environment });
  expect(service.build).toEqual({ context: REPOSITORY, dockerfile: 'Containerfile' });
  expect(service.read_only).toBe(true);
  expect(service.tmpfs).toEqual(['/tmp']);
  expect(service.restart).toBe('unless-stopped');
  expect(durationMs(service.stop_grace_period)).toBeGreaterThanOrEqual(config.shutdownGraceMs + CLOSE_MARGIN_MS);
  expect(service.volumes.some((volume: string) => (volume.split(':')[1] ?? volume) === config.dataDir)).toBe(true);
  return config;
}

const hostOf = (url: string) => new URL(url).hostname;
const wharfServices = (file: ComposeFile) =>
  Object.entries(file.services).filter(([, service]) => serviceEnvironment(service).WHARF_ROLE);

it('leaves no variable with an empty default, which podman-compose 1.0 would pass on uninterpolated', () => {
  for (const file of [SINGLE_NODE, MULTI_NODE]) expect(readFileSync(file, 'utf8'), file).not.toMatch(/\$\{\w+:?-\}/);
});

describe.skipIf(!works)('the compose files of one node (deploy/compose.yaml)', () => {
  it(
    'runs one node built from the repository, read-only, its data in a named volume',
    async () => {
      const file = await composeConfig(SINGLE_NODE, {});
      expect(Object.keys(file.services)).toEqual(['wharf']);
      const service = file.services.wharf;
      const config = expectWharfService(service);
      expect(service.image).toBe('wharf');
      expect(service.volumes).toEqual([`data:${config.dataDir}:rw`]);
      expect(file.volumes).toEqual({ data: {} });
      expect(service.ports).toEqual([{ published: 8080, target: config.port }]);
      expect(config.url.href).toBe('http://localhost:8080/');
      expect(config.roles).toEqual({ api: true, edge: true, worker: true, builder: true });
    },
    COMPOSE_TIMEOUT,
  );

  it(
    'takes the image, the port and the settings from the environment',
    async () => {
      const file = await composeConfig(SINGLE_NODE, {
        WHARF_IMAGE: 'registry.example.com/wharf:0.1.0',
        WHARF_HOST_PORT: '9000',
        WHARF_URL: 'https://wharf.example.com',
        WHARF_SITES_URL: 'https://example.app',
        WHARF_TRUST_PROXY: '10.0.0.2',
      });
      const service = file.services.wharf;
      expect(service.image).toBe('registry.example.com/wharf:0.1.0');
      expect(service.ports).toEqual([{ published: 9000, target: 8080 }]);
      const config = expectWharfService(service);
      expect([config.url.host, config.sitesUrl.host]).toEqual(['wharf.example.com', 'example.app']);
      expect(config.trustProxy('10.0.0.2', 0)).toBe(true);
    },
    COMPOSE_TIMEOUT,
  );
});

describe.skipIf(!works)('the reference layout of several nodes (deploy/compose.multi-node.yaml)', () => {
  const choices = operatorChoices();
  let file: ComposeFile;
  beforeAll(async () => {
    file = await composeConfig(MULTI_NODE, choices);
  }, COMPOSE_TIMEOUT);

  it(
    'refuses to start until the operator chose each secret',
    async () => {
      await Promise.all(
        Object.keys(choices).map((name) => {
          const others = Object.fromEntries(Object.entries(choices).filter(([key]) => key !== name));
          return expect(composeConfig(MULTI_NODE, others), name).rejects.toThrow(`Set ${name}`);
        }),
      );
    },
    COMPOSE_TIMEOUT,
  );

  it('runs an API node, two edge nodes and a worker node on the shared state', () => {
    const nodes = wharfServices(file).map(([name, service]) => ({
      name,
      service,
      config: expectWharfService(service),
    }));
    expect(nodes.map(({ service }) => serviceEnvironment(service).WHARF_ROLE).sort()).toEqual([
      'api',
      'edge',
      'edge',
      'worker',
    ]);
    expect(new Set(nodes.map(({ config }) => config.nodeName)).size).toBe(nodes.length);
    for (const { name, service, config } of nodes) {
      expect(config.secret, name).toBe(choices.WHARF_SECRET);
      expect(hostOf(config.databaseUrl!)).toBe('postgres');
      expect(hostOf(config.redisUrl!)).toBe('redis');
      expect(config.storage.kind === 's3' && config.storage.endpoint?.hostname).toBe('s3');
      expect(serviceEnvironment(service).AWS_SECRET_ACCESS_KEY).toBe(choices.S3_SECRET_KEY);
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        bucket: { condition: 'service_completed_successfully' },
      });
      expect(service.healthcheck.test.join(' ')).toContain(`127.0.0.1:${config.port}/readyz`);
    }
    for (const dependency of ['postgres', 'redis', 's3']) expect(file.services[dependency].healthcheck).toBeDefined();
    const bucket = nodes[0]!.config.storage.kind === 's3' ? nodes[0]!.config.storage.bucket : '';
    expect(file.services.bucket.command.join(' ')).toContain(`s3.bucket.create -name ${bucket}`);
    expect(serviceEnvironment(file.services.s3)).toEqual({
      S3_ACCESS_KEY: choices.S3_ACCESS_KEY,
      S3_SECRET_KEY: choices.S3_SECRET_KEY,
    });
  });

  it('has its nodes believe the forwarded headers of their own network only', () => {
    const [subnet] = file.networks!.wharf.ipam.config.map((entry: any) => entry.subnet);
    for (const [, service] of wharfServices(file)) {
      const { trustProxy } = loadConfig(serviceEnvironment(service));
      expect(serviceEnvironment(service).WHARF_TRUST_PROXY).toBe(subnet);
      expect(trustProxy(subnet.replace(/0\/24$/, '7'), 0)).toBe(true);
      expect(trustProxy('192.168.1.10', 0)).toBe(false);
    }
  });

  it("has compose/nginx.conf send the console's host to the API node, every other host to the edge nodes", () => {
    const conf = readFileSync(BALANCER_CONF, 'utf8');
    const upstreams = new Map(
      [...conf.matchAll(/upstream (\w+) \{([^}]*)\}/g)].map(([, name, body]) => [
        name!,
        [...body!.matchAll(/server ([\w-]+):(\d+);/g)].map(([, host, port]) => ({ host: host!, port: Number(port) })),
      ]),
    );
    const servers = [...conf.matchAll(/server \{([^}]*\})/g)].map(([, body]) => ({
      names: /server_name ([^;]+);/.exec(body!)?.[1]?.split(/\s+/) ?? [],
      isDefault: /listen \d+ default_server;/.test(body!),
      upstream: /proxy_pass http:\/\/(\w+);/.exec(body!)?.[1] ?? '',
    }));
    const rolesBehind = (upstream: string) =>
      upstreams.get(upstream)!.map(({ host, port }) => {
        const config = loadConfig({ ...imageEnvironment(), ...serviceEnvironment(file.services[host]) });
        expect(config.port).toBe(port);
        expect(file.services.balancer.depends_on[host]).toEqual({ condition: 'service_healthy' });
        return Object.keys(config.roles).filter((role) => config.roles[role as 'api']);
      });
    const consoleHost = loadConfig(serviceEnvironment(file.services.api)).url.hostname;
    const consoleServer = servers.find((server) => server.names.includes(consoleHost))!;
    expect(rolesBehind(consoleServer.upstream)).toEqual([['api']]);
    const otherHosts = servers.find((server) => server.isDefault)!;
    expect(rolesBehind(otherHosts.upstream)).toEqual([['edge'], ['edge']]);
    expect(file.services.balancer.volumes).toContain(`${BALANCER_CONF}:/etc/nginx/nginx.conf:ro`);
  });

  it("has compose/nginx.conf be a configuration nginx accepts, the nodes' names aside", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'wharf-balancer-'));
    try {
      // The compose network's names resolve only there: here every node is this machine.
      const conf = path.join(folder, 'nginx.conf');
      await writeFile(
        conf,
        readFileSync(BALANCER_CONF, 'utf8').replace(/server [\w-]+:(\d+);/g, 'server 127.0.0.1:$1;'),
      );
      const { stderr } = await run(NGINX, ['-t', '-p', folder, '-c', conf, '-e', 'stderr']);
      expect(stderr).toContain('test is successful');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
