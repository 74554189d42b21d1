export { compileHeaders } from './compileHeaders.ts';
export { compileRedirects } from './compileRedirects.ts';
export { headerLimits, parseHeaders } from './parseHeaders.ts';
export { parseRedirects, redirectLimits } from './parseRedirects.ts';
export type {
  HeaderBlock,
  HeaderMatcher,
  RedirectMatch,
  RedirectMatcher,
  RedirectRule,
  RedirectStatus,
  RuleFile,
  RuleProblem,
} from './types.ts';
