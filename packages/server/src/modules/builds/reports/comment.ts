import type { Database } from '../../../db/schema.ts';

export interface CommentFacts {
  site: string;
  build: Pick<Database['builds'], 'state' | 'error' | 'branch'>;
  commit: string;
  buildPage: string;
  published: string | null;
}

/** Text from Wharf's own messages, as inline code: nothing in it becomes a mention, a link or markup. */
const asCode = (text: string) => `\`${text.replace(/[`\r\n]+/g, ' ').slice(0, 500)}\``;

/**
 * The one comment Wharf keeps on a pull request, in the Markdown all three forges read: the
 * preview's address once a build of it is published, or why the latest build failed.
 */
export function commentText(facts: CommentFacts): string {
  const commit = facts.commit.slice(0, 7);
  const lines =
    facts.build.state === 'succeeded'
      ? [
          `**Wharf** · the preview of **${facts.site}** is ready${facts.published ? `: ${facts.published}` : ''}`,
          '',
          `Built from ${commit} · [build log](${facts.buildPage})`,
        ]
      : [
          `**Wharf** · the preview of **${facts.site}** failed to build from ${commit}: ${asCode(facts.build.error ?? 'see the log')}`,
          '',
          `[Build log](${facts.buildPage})`,
        ];
  return [...lines, '', '<sub>Wharf updates this comment after each build of this pull request.</sub>'].join('\n');
}
