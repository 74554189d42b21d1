import path from 'node:path';
import { type Plugin, runnerImport } from 'vite';

/** What the console's route table keeps of a route: where and how to call it, not its schemas. */
type RouteFields = Record<string, string | number | boolean | null>;

/** The API reference's text: the console never shows it. */
const LEFT_OUT = new Set(['summary']);

const isPlain = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

function fieldsOf(route: Record<string, unknown>) {
  const fields: RouteFields = {};
  const schemas: string[] = [];
  for (const [key, value] of Object.entries(route)) {
    if (LEFT_OUT.has(key)) continue;
    if (isPlain(value)) fields[key] = value as RouteFields[string];
    else schemas.push(key);
  }
  return { fields, schemas };
}

/** The module the console bundles in place of the contract's table. */
export function tableModule(api: Record<string, Record<string, unknown>>) {
  const entries = Object.entries(api).map(([name, route]) => {
    const { fields, schemas } = fieldsOf(route);
    return `  ${JSON.stringify(name)}: withoutSchemas(${JSON.stringify(name)}, ${JSON.stringify(fields)}, ${JSON.stringify(schemas)}),`;
  });
  return `function withoutSchemas(name, fields, schemas) {
  for (const key of schemas)
    Object.defineProperty(fields, key, {
      get() {
        throw new Error(\`The console's route table has no schemas (api.\${name}.\${key}): import the schema by its name from @wharf/contract\`);
      },
    });
  return fields;
}
export const api = {
${entries.join('\n')}
};
export const allRoutes = Object.entries(api);
`;
}

/**
 * The console calls routes by the contract's table, but only needs their methods and paths: the
 * table with every schema would put zod and all of the contract into the first page's bundle. This
 * evaluates the table at build time and bundles it without its schemas; a form that validates
 * with a schema imports that schema by name.
 */
export function routeTableWithoutSchemas(): Plugin {
  let tableFile = '';
  let code = '';
  return {
    name: 'wharf:route-table-without-schemas',
    async buildStart() {
      const contract = await this.resolve('@wharf/contract');
      if (!contract) this.error('@wharf/contract cannot be resolved');
      tableFile = path.join(path.dirname(contract.id), 'routes', 'table.ts');
      const { module, dependencies } = await runnerImport<Record<string, unknown>>(tableFile, {
        configFile: false,
        logLevel: 'warn',
      });
      const exported = Object.keys(module).sort().join(', ');
      if (exported !== 'allRoutes, api')
        this.error(`${tableFile} must export only api and allRoutes (it exports ${exported})`);
      for (const dependency of dependencies) this.addWatchFile(dependency);
      code = tableModule(module.api as Record<string, Record<string, unknown>>);
    },
    load(id) {
      return id === tableFile ? code : undefined;
    },
  };
}
