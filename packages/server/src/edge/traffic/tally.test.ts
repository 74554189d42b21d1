import { describe, expect, it } from 'vitest';
import { OTHER, pathAsked, referrerHost, TrafficTally, trafficBranchOf } from './tally.ts';
import { mostCounted } from './write.ts';

const visit = { siteId: 's1', branch: 'b1', status: 200, bytes: 10, referrer: null };

describe('the traffic tally', () => {
  it('holds a bounded number of paths, counting the rest as other', () => {
    const tally = new TrafficTally();
    for (let i = 0; i < 1_500; i++) tally.record({ ...visit, path: `/scan/${i}` });
    tally.record({ ...visit, path: '/scan/0' });
    const [entry] = tally.take();
    const paths = new Map(entry!.lists.path);
    expect(paths.size).toBe(1_001);
    expect(paths.get('/scan/0')).toBe(2);
    expect(paths.get(OTHER)).toBe(500);
    expect(entry!.counts).toMatchObject({ requests: 1_501, bytes: 15_010, status_2xx: 1_501 });
    expect(tally.take()).toEqual([]);
  });

  it('lists 404s apart, and neither a path nor a referrer of an error', () => {
    const tally = new TrafficTally();
    tally.record({ ...visit, status: 404, path: '/gone', referrer: 'a.example' });
    tally.record({ ...visit, status: 500, path: '/broken', referrer: 'a.example' });
    tally.record({ ...visit, status: 304, path: '/kept', referrer: 'b.example' });
    tally.record({ ...visit, status: 400, path: null });
    const [entry] = tally.take();
    expect(entry!.lists).toEqual({ path: [['/kept', 1]], missing: [['/gone', 1]], referrer: [['b.example', 1]] });
    expect(entry!.counts).toMatchObject({ requests: 4, status_3xx: 1, status_4xx: 2, status_5xx: 1 });
  });

  it("adds a worker's batch to its own", () => {
    const worker = new TrafficTally();
    worker.record({ ...visit, path: '/a' });
    const primary = new TrafficTally();
    primary.record({ ...visit, path: '/a' });
    primary.add(worker.take());
    const [entry] = primary.take();
    expect(entry!.lists.path).toEqual([['/a', 2]]);
    expect(entry!.counts.requests).toBe(2);
  });

  it('keeps a long path to a length a person reads', () => {
    const tally = new TrafficTally();
    tally.record({ ...visit, path: `/${'a'.repeat(5_000)}` });
    expect(tally.take()[0]!.lists.path[0]![0]).toHaveLength(300);
  });
});

describe('what is counted of a request', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['android-app://com.example', null],
    ['https://news.example.org/item?id=1', 'news.example.org'],
    ['HTTP://User:pw@Search.Example.COM:8080/q', 'search.example.com'],
    ['https://[2001:db8::1]:443/', '[2001:db8::1]'],
    ['https://blog.example/', null],
  ])('the referrer host of %s is %s', (referer, host) => {
    expect(referrerHost(referer, 'blog.example')).toBe(host);
  });

  it('counts every release address under one key and names paths with their slashes', () => {
    expect(trafficBranchOf('release:abc')).toBe('releases');
    expect(trafficBranchOf('f3b1')).toBe('f3b1');
    expect(pathAsked('', true)).toBe('/');
    expect(pathAsked('docs', true)).toBe('/docs/');
    expect(pathAsked('docs/a.html', false)).toBe('/docs/a.html');
  });

  it('writes the most counted keys of a list, the rest as other', () => {
    const list: [string, number][] = [
      ['/a', 5],
      ['/b', 1],
      [OTHER, 3],
      ['/c', 2],
    ];
    expect(mostCounted(list, 2)).toEqual([
      ['/a', 5],
      ['/c', 2],
      [OTHER, 4],
    ]);
  });
});
