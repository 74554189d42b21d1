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

const DAY_MS = 24 * HOUR_MS;

export interface DayPoint {
  day: string;
  requests: number;
  bytes: number;
}

/** One point per day (UTC) of the last `days`, today last, with 0 for the days nobody asked for anything. */
export function dailySeries(rows: readonly DayPoint[], days: number, now: number = Date.now()): DayPoint[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, requests: row?.requests ?? 0, bytes: row?.bytes ?? 0 };
  });
}
