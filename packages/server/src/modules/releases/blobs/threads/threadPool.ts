import { Worker } from 'node:worker_threads';
import { stopThread } from '../../../../lib/stopThread.ts';

interface Pending<R> {
  message: Record<string, unknown>;
  resolve(result: R): void;
  reject(error: Error): void;
}

interface Answer {
  id: number;
  error?: string;
}

/**
 * A few worker threads running one script, each given one task at a time; tasks beyond them wait
 * in order. A thread that dies fails its task and is replaced. The threads do not keep the process
 * alive: a server stops whether they are busy or not. Closing lets each thread end its task and exit
 * (`stopThread`).
 */
export class ThreadPool<R extends Answer> {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending<R>>();
  private readonly queue: Pending<R>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly script: URL | string,
    private readonly size: number,
  ) {}

  run(message: Record<string, unknown>): Promise<R> {
    if (this.closed) return Promise.reject(new Error('The thread pool is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ message: { ...message, id: this.nextId++ }, resolve, reject });
      this.dispatch();
    });
  }

  /** Tasks waiting or running. */
  get load() {
    return this.queue.length + this.busy.size;
  }

  async close() {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('The thread pool is closed'));
    const threads = [...this.idle.splice(0), ...this.busy.keys()];
    await Promise.all(threads.map(stopThread));
  }

  private dispatch() {
    while (this.queue.length > 0) {
      const thread = this.idle.pop() ?? (this.threadCount < this.size ? this.spawn() : undefined);
      if (!thread) return;
      const task = this.queue.shift()!;
      this.busy.set(thread, task);
      thread.postMessage(task.message);
    }
  }

  private get threadCount() {
    return this.idle.length + this.busy.size;
  }

  private spawn() {
    const thread = new Worker(this.script);
    thread.unref();
    thread.on('message', (answer: R) => {
      const task = this.busy.get(thread);
      this.busy.delete(thread);
      if (!this.closed) this.idle.push(thread);
      if (answer.error !== undefined) task?.reject(new Error(answer.error));
      else task?.resolve(answer);
      this.dispatch();
    });
    thread.on('error', (error) => this.lose(thread, error));
    thread.on('exit', (code) => this.lose(thread, new Error(`A worker thread stopped (exit code ${code})`)));
    return thread;
  }

  private lose(thread: Worker, error: Error) {
    const task = this.busy.get(thread);
    this.busy.delete(thread);
    const index = this.idle.indexOf(thread);
    if (index !== -1) this.idle.splice(index, 1);
    task?.reject(error);
    if (!this.closed) this.dispatch();
  }
}
