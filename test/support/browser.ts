import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package: the browser tests drive it; nothing downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where page screenshots go (gitignored); two of them are copied to docs/console/ for the README. */
export const SCREENSHOT_DIR = join(__dirname, '..', 'artifacts', 'console');

/**
 * A headless Chromium with a new empty profile and no network of its own (no updates, sync or QUIC).
 * The profile is a temporary directory removed once the browser is closed (`close()` on what this returns).
 */
export async function launchChromium(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (err) {
    removeProfile();
    throw err;
  }
  // Closing a persistent context ends the browser process: the profile goes once it has.
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      await close(options);
    } finally {
      removeProfile();
    }
  };
  return context;
}
