import { Paper, ScrollArea, Text } from '@mantine/core';
import { api, type BuildLogLine } from '@wharf/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from '../../lib/api.ts';
import { useBuildLogLines } from '../realtime/RealtimeProvider.tsx';
import classes from './BuildLogView.module.css';

/**
 * A build's log: what was written so far from the API, then each line as the builder writes it
 * over the real-time channel. Lines are numbered from 0 without gaps, so a message that skips
 * ahead (it came before the history did) asks the API for what lies between.
 */
function useBuildLog(siteId: string, buildId: string, finished: boolean) {
  const [lines, setLines] = useState<BuildLogLine[]>([]);
  const next = useRef(0);
  const loading = useRef<Promise<void> | null>(null);

  const add = useCallback((more: BuildLogLine[]) => {
    const fresh = more.filter((line) => line.seq >= next.current).sort((a, b) => a.seq - b.seq);
    if (fresh.length === 0 || fresh[0]!.seq !== next.current) return false;
    next.current = fresh.at(-1)!.seq + 1;
    setLines((shown) => [...shown, ...fresh]);
    return true;
  }, []);

  const catchUp = useCallback(() => {
    loading.current ??= (async () => {
      for (;;) {
        const page = await call(api.getBuildLog, { params: { siteId, buildId }, query: { after: next.current } });
        add(page.lines);
        if (page.lines.length < 1000) break;
      }
    })()
      .catch(() => {})
      .finally(() => {
        loading.current = null;
      });
  }, [siteId, buildId, add]);

  useBuildLogLines(buildId, (message) => {
    if (!add(message.lines)) catchUp();
  });
  // The history, and again once the build has ended: its last lines may have come before the page listened.
  useEffect(() => {
    if (finished || next.current === 0) catchUp();
  }, [catchUp, finished]);
  return lines;
}

/** The log, following its end while the reader is there; scrolling up stops the following. */
export function BuildLogView({ siteId, buildId, finished }: { siteId: string; buildId: string; finished: boolean }) {
  const lines = useBuildLog(siteId, buildId, finished);
  const viewport = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const element = viewport.current;
    if (element && following.current && lines.length > 0) element.scrollTop = element.scrollHeight;
  }, [lines]);
  return (
    <Paper withBorder radius="md" className={classes.log}>
      <ScrollArea.Autosize
        mah={520}
        viewportRef={viewport}
        onScrollPositionChange={({ y }) => {
          const element = viewport.current;
          if (element) following.current = y + element.clientHeight >= element.scrollHeight - 24;
        }}
      >
        <pre className={classes.lines} role="log" aria-label="Build log">
          {lines.length === 0 ? (
            <Text component="span" c="dimmed" size="sm">
              {finished ? 'This build wrote no log.' : 'Waiting for the builder…'}
            </Text>
          ) : (
            lines.map((line) => (
              <span key={line.seq} className={line.text.startsWith('── ') ? classes.phase : undefined}>
                {line.text}
                {'\n'}
              </span>
            ))
          )}
        </pre>
      </ScrollArea.Autosize>
    </Paper>
  );
}
