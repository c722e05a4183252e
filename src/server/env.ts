/**
 * A whole number from the environment, at least `min`; `fallback` when unset or empty. A value
 * that is no such number stops the start, naming the variable: a limit silently taken as its
 * default would not be the limit its owner set.
 */
export function envCount(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: 0 | 1,
): number {
  return wholeNumber(name, env[name], fallback, min);
}

/**
 * A setting's text as a whole number: digits only, else NaN. Number() would read "1e3" and
 * "0x10" as numbers nobody meant to write.
 */
export const digits = (value: string): number => (/^\d+$/.test(value.trim()) ? Number(value) : NaN);

/**
 * `value` (a setting named `name`, from the environment or the command line) as a whole number
 * of at least `min`, or `fallback` when it is not given; anything else throws, naming it.
 */
export function wholeNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: 0 | 1,
): number {
  const value = raw?.trim();
  if (!value) return fallback;
  const n = digits(value);
  if (!Number.isSafeInteger(n) || n < min) {
    const what = min === 1 ? 'a positive whole number' : 'a whole number, 0 or more';
    throw new Error(`${name} must be ${what}, not "${value.slice(0, 40)}"`);
  }
  return n;
}
