import { DEFAULT_COLOR } from '@wharf/contract';

/** The colors offered next to the color pickers of organizations, teams and sites. */
export const swatches = [
  DEFAULT_COLOR,
  '#0059b5',
  '#237ee3',
  '#0c9fd0',
  '#0ca678',
  '#37b24d',
  '#f59f00',
  '#f76707',
  '#e03131',
  '#d6336c',
  '#9c36b5',
  '#6741d9',
];
