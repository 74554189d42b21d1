import nodeModule from 'node:module';

/**
 * Keeps the code V8 compiles on disk (Node's compile cache, in the system's temporary folder): the
 * dependencies the primary loads from here on, and the whole of every worker it forks, which
 * inherit the folder, start without compiling again. Nothing depends on it: a folder that cannot
 * be written only leaves it off.
 */
export function keepCompiledCode() {
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const cache = nodeModule.enableCompileCache?.();
  if (cache?.directory) process.env.NODE_COMPILE_CACHE = cache.directory;
}

/**
 * Writes what this process compiled while starting, once it serves. Node writes the cache only
 * when a process exits normally: a worker that crashed, or a node killed, had kept nothing, and the
 * worker forked in its place compiled everything again.
 */
export function saveCompiledCode() {
  nodeModule.flushCompileCache?.();
}
