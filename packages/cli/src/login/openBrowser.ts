import { spawn } from 'node:child_process';

/** The desktop's opener on each platform, given the address as its last argument. */
function openerOf(platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'darwin') return ['open', []];
  // `start` is a command of cmd itself; its first quoted argument is the window's title.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""']];
  return ['xdg-open', []];
}

/**
 * Asks the desktop to open a page. A machine without an opener (a server, a container) simply
 * does nothing: the address is printed for the user anyway.
 */
export function openInBrowser(url: string, env: Record<string, string | undefined>, platform: NodeJS.Platform) {
  const [command, args] = openerOf(platform);
  try {
    const child = spawn(command, [...args, url], { env, stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {}
}
