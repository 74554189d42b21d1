import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The parts of a V8 CPU profile (node --cpu-prof) that say where the time went. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

/**
 * The functions taking the most self time (share of the time not idle) in the profiles `node --cpu-prof` wrote into `dir`,
 * leaving out the processes `leaveOut` (the primaries, which serve no site): the workers together.
 */
export async function topSelfTime(dir: string, leaveOut: readonly (number | undefined)[], count = 15) {
  const selfUs = new Map<string, number>();
  let totalUs = 0;
  let profiles = 0;
  for (const name of await readdir(dir).catch(() => [])) {
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile
    if (!name.endsWith('.cpuprofile') || leaveOut.includes(Number(name.split('.')[3]))) continue;
    profiles++;
    const profile = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as CpuProfile;
    const labels = new Map(
      profile.nodes.map(({ id, callFrame: f }) => [
        id,
        f.url ? `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}` : f.functionName,
      ]),
    );
    // A sample's time is the delta until the next one.
    for (let i = 0; i < profile.samples.length - 1; i++) {
      const us = profile.timeDeltas[i + 1]!;
      const label = labels.get(profile.samples[i]!)!;
      // Waiting for the load on the other servers: not where a request's time goes.
      if (label === '(idle)') continue;
      selfUs.set(label, (selfUs.get(label) ?? 0) + us);
      totalUs += us;
    }
  }
  const top = [...selfUs].toSorted((a, b) => b[1] - a[1]).slice(0, count);
  return { profiles, totalUs, top: top.map(([label, us]) => ({ label, share: us / totalUs, ms: us / 1000 })) };
}
