// `npm start`: builds the console when it is missing or older than its sources and bundles the
// server, then runs the server in this process's place.
import { spawn } from 'node:child_process';
import { buildForStart } from './build.mjs';

const main = await buildForStart();
const server = spawn(process.execPath, ['--enable-source-maps', main], { stdio: 'inherit' });
// Pass stop signals on, so the server can finish requests in flight before it exits.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
