import type { MantineColorsTuple } from '@mantine/core';

// The harbour blue of the brand, and the two extra colors the method badges use (spec.md §2).
export const harbour: MantineColorsTuple = [
  '#e6f4ff',
  '#cde4fb',
  '#9cc7f3',
  '#67a8ec',
  '#3d8ee6',
  '#237ee3',
  '#1176e2',
  '#0065c9',
  '#0059b5',
  '#004ca1',
];
export const info: MantineColorsTuple = [
  '#e2fbff',
  '#d0f1fd',
  '#a4e2f7',
  '#74d1f1',
  '#4fc3ec',
  '#37bbea',
  '#25b6ea',
  '#0c9fd0',
  '#008dba',
  '#007aa5',
];
export const warning: MantineColorsTuple = [
  '#fff7e1',
  '#ffedcc',
  '#ffd99b',
  '#ffc464',
  '#ffb237',
  '#ffa71a',
  '#ffa105',
  '#e38c00',
  '#ca7c00',
  '#af6a00',
];
