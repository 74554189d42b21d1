export { hookRoutesByContext } from './hooks.ts';
export * from './table.ts';
