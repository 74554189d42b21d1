import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/** The page's meta tag naming its build: the console compares it with the page the server serves now. */
export const CONSOLE_BUILD_META = 'wharf-console-build';

/**
 * Names each build in index.html by a hash of its files' names. Every name carries its content's
 * hash, so two builds share a name exactly when they load the same code: a console open in a tab
 * knows the server was upgraded under it when the page it would load now names another build.
 */
export function consoleBuildId(): Plugin {
  return {
    name: 'wharf-console-build',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const names = Object.keys(context.bundle ?? {}).sort();
        const id = createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 16);
        return [{ tag: 'meta', attrs: { name: CONSOLE_BUILD_META, content: id }, injectTo: 'head' }];
      },
    },
  };
}
