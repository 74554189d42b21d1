import type { Build, BuildPhaseName, BuildState } from '@wharf/contract';

/** How the console names a build's state, and the colour of its badge. */
export const buildStates: Record<BuildState, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'gray' },
  running: { label: 'Building', color: 'blue' },
  succeeded: { label: 'Published', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

export const phaseLabels: Record<BuildPhaseName, string> = {
  clone: 'Clone',
  restoreCache: 'Restore cache',
  install: 'Install',
  build: 'Build',
  upload: 'Upload',
  saveCache: 'Save cache',
};

export const isFinished = (build: Pick<Build, 'state'>) => build.state !== 'queued' && build.state !== 'running';

/** `Build now by ada`, `Build hook 'CMS'`, `Push`: what queued it. */
export function triggerText(build: Build): string {
  switch (build.trigger) {
    case 'manual':
      return build.triggeredBy ? `Started by ${build.triggeredBy}` : 'Started by hand';
    case 'retry':
      return build.triggeredBy ? `Retried by ${build.triggeredBy}` : 'Retried';
    case 'hook':
      return build.triggeredBy ? `Called ${build.triggeredBy}` : 'Build hook';
    case 'push':
      return build.triggeredBy ? `Pushed by ${build.triggeredBy}` : 'Push';
    case 'pullRequest':
      return `Pull request #${build.source.pullRequest ?? '?'}`;
  }
}

/** `main @ 3f2a9c1`, or the branch alone before the commit is known. */
export function buildTitle(build: Build): string {
  return build.source.commit ? `${build.gitBranch} @ ${build.source.commit.slice(0, 7)}` : build.gitBranch;
}

/** From its start to its end, or to now while it runs; null while queued. */
export function buildDurationMs(build: Build, now = Date.now()): number | null {
  if (!build.startedAt) return null;
  const end = build.finishedAt ? Date.parse(build.finishedAt) : now;
  return end - Date.parse(build.startedAt);
}
