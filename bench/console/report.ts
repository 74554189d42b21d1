import type { PageFigures } from './lighthouse.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toLocaleString('en-US')} ms`;

function table(header: string[], rows: string[][]) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** One row per page: what it downloads before it shows anything, and Lighthouse's scores. */
export function pagesTable(pages: PageFigures[]) {
  return table(
    [
      'page',
      'JS before FCP',
      'CSS before FCP',
      'JS, whole load',
      'perf.',
      'a11y',
      'best pr.',
      'FCP',
      'LCP',
      'TBT',
      'CPU index',
    ],
    pages.map((page) => [
      page.label,
      kb(page.jsBeforePaint),
      kb(page.cssBeforePaint),
      kb(page.jsTotal),
      String(page.performance),
      String(page.accessibility),
      String(page.bestPractices),
      ms(page.fcpMs),
      ms(page.lcpMs),
      ms(page.tbtMs),
      String(page.benchmarkIndex),
    ]),
  );
}

export interface Target {
  text: string;
  met: boolean;
}

/** issue 12, "Measured": the console's pages against their targets. */
export function targetsOf(login: PageFigures, consolePages: PageFigures[]): Target[] {
  const targets: Target[] = [
    { text: `${login.label}: at most 150 KB of JS before the first paint`, met: login.jsBeforePaint <= 150 * 1024 },
  ];
  for (const page of consolePages) {
    targets.push(
      { text: `${page.label}: performance at least 90`, met: page.performance >= 90 },
      { text: `${page.label}: accessibility 100`, met: page.accessibility === 100 },
      { text: `${page.label}: best practices 100`, met: page.bestPractices === 100 },
    );
  }
  return targets;
}
