import { defaultRetryPolicy } from './api/retry.ts';
import { runCli } from './cli.ts';

const exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  retry: defaultRetryPolicy,
  now: () => new Date(),
  openBrowser: (url) =>
    import('./login/openBrowser.ts').then((module) => module.openInBrowser(url, process.env, process.platform)),
});
// Exit now rather than when idle keep-alive sockets time out; stdout and stderr are flushed first.
process.stdout.write('', () => process.stderr.write('', () => process.exit(exitCode)));
