/**
 * The value of an `<input type="datetime-local">` for an instant, in the browser's time zone: `YYYY-MM-DDTHH:MM`.
 */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The instant a `datetime-local` value stands for in the browser's time zone; null when empty or unreadable. */
export function fromLocalInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((v) => Number(v ?? 0)) as number[];
  const date = new Date(y!, mo! - 1, d!, h!, mi!, s ?? 0);
  return Number.isNaN(date.getTime()) || date.getMonth() !== mo! - 1 ? null : date;
}
