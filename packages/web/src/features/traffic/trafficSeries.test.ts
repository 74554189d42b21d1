import { describe, expect, it } from 'vitest';
import { dailySeries, trafficSeries } from './trafficSeries.ts';

describe('trafficSeries', () => {
  const now = Date.parse('2025-03-10T12:34:00.000Z');

  it('gives one point per hour, oldest first, ending with the current hour', () => {
    const series = trafficSeries([], 3, now);
    expect(series.map((point) => point.hour)).toEqual([
      '2025-03-10T10:00:00.000Z',
      '2025-03-10T11:00:00.000Z',
      '2025-03-10T12:00:00.000Z',
    ]);
    expect(series.every((point) => point.requests === 0 && point.bytes === 0)).toBe(true);
  });

  it('places the hours the server counted and leaves the others at 0', () => {
    const series = trafficSeries([{ hour: '2025-03-10T11:00:00.000Z', requests: 7, bytes: 900 }], 3, now);
    expect(series.map((point) => point.requests)).toEqual([0, 7, 0]);
  });

  it('ignores hours older than the window', () => {
    const series = trafficSeries([{ hour: '2025-03-01T11:00:00.000Z', requests: 7, bytes: 900 }], 3, now);
    expect(series.reduce((total, point) => total + point.requests, 0)).toBe(0);
  });
});

describe('dailySeries', () => {
  const now = Date.parse('2025-03-10T11:30:00Z');

  it('gives every day of the range, today last, counting those without a row as 0', () => {
    const series = dailySeries([{ day: '2025-03-09', requests: 4, bytes: 40 }], 3, now);
    expect(series).toEqual([
      { day: '2025-03-08', requests: 0, bytes: 0 },
      { day: '2025-03-09', requests: 4, bytes: 40 },
      { day: '2025-03-10', requests: 0, bytes: 0 },
    ]);
  });
});
