import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { api } from '@wharf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { tableModule } from './routeTable.ts';

type LightRoute = Record<string, unknown>;

describe('the route table the console bundles', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function bundledTable() {
    // Beside this file: the test runner loads modules from within the project.
    dir = await mkdtemp(path.join(import.meta.dirname, 'route-table-'));
    const file = path.join(dir, 'table.mjs');
    await writeFile(file, tableModule(api as unknown as Record<string, Record<string, unknown>>));
    return (await import(/* @vite-ignore */ file)) as { api: Record<string, LightRoute>; allRoutes: unknown[] };
  }

  it('keeps every route of the contract with its method, path and scope', async () => {
    const table = await bundledTable();
    expect(Object.keys(table.api)).toEqual(Object.keys(api));
    expect(table.allRoutes).toHaveLength(Object.keys(api).length);
    for (const [name, route] of Object.entries(api)) {
      expect(table.api[name]).toMatchObject({ method: route.method, path: route.path, scope: route.scope });
    }
  });

  it('refuses to hand out a schema, naming where to import it from', async () => {
    const table = await bundledTable();
    expect(() => table.api.signInInMemory?.body).toThrow(/api\.signInInMemory\.body.*import the schema by its name/);
    expect(() => table.api.getUser?.response).toThrow(/@wharf\/contract/);
  });
});
