import { existsSync, readFileSync } from 'fs';
import { dirname, join } from 'path';

export interface ConsoleAsset {
  readonly contentType: string;
  readonly body: Buffer;
}

/** The console's own files (copied beside the compiled code by `npm run build`) and its one vendor file. */
const OWN_FILES: ReadonlyArray<[string, string]> = [
  ['index.html', 'text/html; charset=utf-8'],
  ['app.js', 'text/javascript; charset=utf-8'],
  ['app.css', 'text/css; charset=utf-8'],
];

/**
 * Preact and htm in one ES module, from htm's npm package (`htm/preact/standalone`): no CDN, no
 * bundler, and no bare `import "preact"` that would need an inline import map.
 */
const VENDOR = 'vendor/preact-htm.js';

/** Every file the console serves, by its path under `/console/`; read once at start (a few tens of KB). */
export function loadConsoleAssets(dir = join(__dirname, 'assets')): ReadonlyMap<string, ConsoleAsset> {
  if (!existsSync(dir)) throw new Error(`console assets not found in ${dir} (npm run build copies them)`);
  const assets = new Map<string, ConsoleAsset>(
    OWN_FILES.map(([name, contentType]) => [name, { contentType, body: readFileSync(join(dir, name)) }]),
  );
  assets.set(VENDOR, {
    contentType: 'text/javascript; charset=utf-8',
    // The package's exports map names no file path, so the file is found from its main entry (dist/htm.js).
    body: readFileSync(join(dirname(require.resolve('htm')), '..', 'preact', 'standalone.module.js')),
  });
  return assets;
}

/**
 * Scripts and styles from the gateway only (no inline code of any kind), API calls to the gateway
 * only, result videos from the gateway or an https origin (media cannot run code), no framing.
 */
export function consoleCsp(publicBaseUrl: string | undefined): string {
  const mediaOrigin = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src 'self'${mediaOrigin} https:`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
