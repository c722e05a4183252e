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
  const value = env[name]?.trim();
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) {
    const what = min === 1 ? 'a positive whole number' : 'a whole number, 0 or more';
    throw new Error(`${name} must be ${what}, not "${value.slice(0, 40)}"`);
  }
  return n;
}
