import { formatBytes } from '../lib/bytes.ts';

/** How far a measured task got. */
export interface Task {
  advance(files: number, bytes: number): void;
  finish(summary: string): void;
}

/** What the CLI tells a person while it works; results go to stdout, this goes to stderr. */
export interface Progress {
  note(message: string): void;
  task(label: string, total: { files: number; bytes: number }): Task;
  /** Always shown, even with --json: retries and things skipped. */
  warn(message: string): void;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 80;
// In a CI log, a slow task says how far it got at each quarter; a fast one says only that it finished.
const LINE_QUIET_MS = 2000;

// A task that cannot know its bytes up front (reading the folder) passes 0 and counts files only.
function counts(done: { files: number; bytes: number }, total: { files: number; bytes: number }) {
  const files = `${done.files}/${total.files} files`;
  return total.bytes > 0 ? `${files}, ${formatBytes(done.bytes)}/${formatBytes(total.bytes)}` : files;
}

function fraction(done: { files: number; bytes: number }, total: { files: number; bytes: number }) {
  if (total.bytes > 0) return done.bytes / total.bytes;
  return total.files > 0 ? done.files / total.files : 1;
}

/** A bar redrawn in place, for a person at a terminal. */
export function terminalProgress(stream: ProgressStream): Progress {
  return {
    note: (message) => stream.write(`${message}\n`),
    warn: (message) => stream.write(`\r\x1b[2K${message}\n`),
    task(label, total) {
      const done = { files: 0, bytes: 0 };
      let drawnAt = 0;
      const draw = () => {
        const share = Math.min(1, fraction(done, total));
        const filled = Math.round(share * BAR_WIDTH);
        const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
        stream.write(`\r\x1b[2K${label} ${bar} ${Math.floor(share * 100)}%  ${counts(done, total)}`);
        drawnAt = Date.now();
      };
      draw();
      return {
        advance(files, bytes) {
          done.files += files;
          done.bytes += bytes;
          if (Date.now() - drawnAt >= REDRAW_MS) draw();
        },
        finish: (summary) => stream.write(`\r\x1b[2K${summary}\n`),
      };
    },
  };
}

/** Plain lines, for CI logs and anything else that is not a terminal. */
export function lineProgress(stream: ProgressStream): Progress {
  return {
    note: (message) => stream.write(`${message}\n`),
    warn: (message) => stream.write(`${message}\n`),
    task(label, total) {
      const done = { files: 0, bytes: 0 };
      const startedAt = Date.now();
      let quarter = 0;
      return {
        advance(files, bytes) {
          done.files += files;
          done.bytes += bytes;
          const reached = Math.floor(fraction(done, total) * 4);
          if (reached > quarter && reached < 4 && Date.now() - startedAt >= LINE_QUIET_MS) {
            stream.write(`${label} ${reached * 25}% (${counts(done, total)})\n`);
          }
          quarter = Math.max(quarter, reached);
        },
        finish: (summary) => stream.write(`${summary}\n`),
      };
    },
  };
}

/** Nothing but warnings: with --json, a script reads stdout and a person may still read stderr. */
export function quietProgress(stream: ProgressStream): Progress {
  const task: Task = { advance() {}, finish() {} };
  return { note() {}, warn: (message) => stream.write(`${message}\n`), task: () => task };
}
