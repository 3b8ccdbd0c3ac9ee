/** ax times: `YYYY-MM-DD HH:mm:ss.SSS`, in UTC (the format carries no zone). */
export function formatAxTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString(); // 2025-01-02T03:04:05.678Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}
