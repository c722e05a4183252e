/**
 * `812 B`, `12.4 KB`, `3.4 MB` (`3,4 MB` in German): a file's size as a reader of `lang` reads
 * one, to one decimal past bytes. The chat's chips and the admin's source table say sizes alike.
 */
export function formatSize(bytes: number, lang: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(lang, { maximumFractionDigits: unit ? 1 : 0 })} ${units[unit]}`;
}
