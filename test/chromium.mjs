// The one place that says how tests start Chromium: web-test-runner's config and the
// playwright-core suites (e2e, package) both read it. Debian's build, found through CHROME_PATH;
// nothing downloads a browser. As root it needs --no-sandbox; the networking flags keep it from
// calling home on a machine with no network beyond the package registries.
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The one-line explanation when Chromium is missing, or undefined when it is there. */
export function missingChromium() {
  return existsSync(chromiumPath)
    ? undefined
    : `Chromium not found at ${chromiumPath}: install it with "apt-get install -y chromium" or set CHROME_PATH to a Chromium or Chrome binary.`;
}
