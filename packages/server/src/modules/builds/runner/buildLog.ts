import type { Db } from '../../../db/schema.ts';
import { now } from '../../../lib/ids.ts';

const MAX_LINES = 20_000;
const MAX_LINE_CHARACTERS = 4_000;
/** A line without its end yet is written when it grows this long (a progress bar that never ends its line). */
const PENDING_LIMIT = 16_000;
const FLUSH_EVERY_MS = 250;
export const MASK = '••••••';

/** Colour codes and other terminal escapes: the console shows plain text. */
const ESCAPE = String.fromCharCode(0x1b);
const TERMINAL_ESCAPE = new RegExp(`${ESCAPE}\\[[0-?]*[ -/]*[@-~]|${ESCAPE}[@-_]`, 'gu');
const CONTROL = /(?!\t)\p{Cc}/gu;

/**
 * The log of one build as it runs: output split into lines, each cleaned of terminal escapes,
 * with every secret value replaced by a mask before anything is kept, written to the database a
 * few times a second (so a reader sees it live), and bounded (a build that prints forever fills
 * no disk).
 */
export class BuildLog {
  private pending = '';
  private unwritten: { seq: number; at: string; text: string }[] = [];
  private next = 0;
  private cut = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private secrets: string[] = [];

  constructor(
    private readonly db: Db,
    private readonly buildId: string,
    secrets: string[],
    private readonly onWritten: () => void = () => {},
  ) {
    this.maskAlso(secrets);
  }

  /** Values masked in every line from now on (a build's secret variables, once they are read). */
  maskAlso(secrets: string[]) {
    // Longest first: a secret that contains another is masked whole.
    this.secrets = [...new Set([...this.secrets, ...secrets.filter((secret) => secret.length >= 4)])].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** Output of a step, in any pieces: lines are kept as they end. */
  write(chunk: string) {
    this.pending += chunk;
    let end = this.pending.indexOf('\n');
    while (end !== -1) {
      this.add(this.pending.slice(0, end));
      this.pending = this.pending.slice(end + 1);
      end = this.pending.indexOf('\n');
    }
    if (this.pending.length > PENDING_LIMIT) {
      this.add(this.pending);
      this.pending = '';
    }
  }

  /** A line of Wharf's own (a phase starting, why it failed). */
  say(text: string) {
    this.endPending();
    this.add(text);
  }

  /** Writes what is left and waits until every line is kept. */
  async close() {
    this.endPending();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private endPending() {
    if (this.pending !== '') this.add(this.pending);
    this.pending = '';
  }

  private mask(text: string) {
    let masked = text;
    for (const secret of this.secrets) masked = masked.replaceAll(secret, MASK);
    return masked;
  }

  private add(raw: string) {
    if (this.cut) return;
    if (this.next >= MAX_LINES) {
      this.cut = true;
      this.push(`… the log stops here: a build keeps at most ${MAX_LINES} lines`);
      return;
    }
    // A progress bar redraws its line after carriage returns: its last state is the line.
    const shown = raw.split('\r').findLast((part) => part !== '') ?? '';
    const clean = this.mask(shown).replace(TERMINAL_ESCAPE, '').replace(CONTROL, '');
    this.push(clean.length > MAX_LINE_CHARACTERS ? `${clean.slice(0, MAX_LINE_CHARACTERS)} …` : clean);
  }

  private push(text: string) {
    this.unwritten.push({ seq: this.next++, at: now(), text });
    this.schedule();
  }

  private schedule() {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      // Kept lines are retried with the next ones, or at close.
      this.flush().catch(() => this.schedule());
    }, FLUSH_EVERY_MS);
  }

  /**
   * One write at a time, in order: a line is never kept before the ones above it. Lines a write
   * could not keep (the database away for a moment) go back to be written with the next.
   */
  private flush(): Promise<void> {
    const write = this.writing.then(async () => {
      const lines = this.unwritten.splice(0);
      if (lines.length === 0) return;
      try {
        await this.keep(lines);
      } catch (error) {
        this.unwritten.unshift(...lines);
        throw error;
      }
      this.onWritten();
    });
    this.writing = write.catch(() => {});
    return write;
  }

  private async keep(lines: { seq: number; at: string; text: string }[]) {
    const last = lines.at(-1)!.seq;
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < lines.length; start += 200) {
        const rows = lines.slice(start, start + 200).map((line) => ({ build_id: this.buildId, ...line }));
        await trx.insertInto('build_log').values(rows).execute();
      }
      await trx
        .updateTable('builds')
        .set({ log_lines: last + 1 })
        .where('id', '=', this.buildId)
        .execute();
    });
  }
}
