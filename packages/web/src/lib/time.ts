const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** 'in 2 hours', '3 days ago', 'just now': every relative time the console shows. */
export function relativeTime(date: string | Date, now: number = Date.now()): string {
  const seconds = Math.round((new Date(date).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  // Either way: the server's clock and the browser's are never exactly together.
  if (abs < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (abs >= size * 0.9) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(Math.round(seconds / 60), 'minute');
}

export function isPast(date: string | Date, now: number = Date.now()): boolean {
  return new Date(date).getTime() <= now;
}

/** The exact date, for tooltips beside a relative time. */
export function exactTime(date: string | Date): string {
  return new Date(date).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}
