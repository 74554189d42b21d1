export interface TrafficPoint {
  hour: string;
  requests: number;
  bytes: number;
}

const HOUR_MS = 3600_000;

/** One point per hour of the last `hours`, oldest first, with 0 for the hours nobody asked for anything. */
export function trafficSeries(rows: readonly TrafficPoint[], hours: number, now: number = Date.now()): TrafficPoint[] {
  const byHour = new Map(rows.map((row) => [new Date(row.hour).getTime(), row]));
  const last = Math.floor(now / HOUR_MS) * HOUR_MS;
  return Array.from({ length: hours }, (_, index) => {
    const at = last - (hours - 1 - index) * HOUR_MS;
    const row = byHour.get(at);
    return { hour: new Date(at).toISOString(), requests: row?.requests ?? 0, bytes: row?.bytes ?? 0 };
  });
}

const units = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1234567 → '1.2 MB'. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
