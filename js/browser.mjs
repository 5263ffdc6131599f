// The browser the docs site's smoke test opens: the headless Chromium that @sparticuz/chromium ships
// inside its npm tarball (brotli-packed), pinned by package-lock.json and installed by `npm ci`
// (make js, make test). A fresh clone needs no system browser and nothing from outside the npm
// registry. The package's executablePath() unpacks it (with its fonts and SwiftShader) into the
// folder os.tmpdir() names, so it is pointed at a folder of this version's own under
// node_modules/.cache/ (npm ci starts node_modules anew, so a new pin unpacks anew); the NSS, NSPR
// and expat libraries the package also ships are unpacked beside it and put first on
// LD_LIBRARY_PATH, so the binary needs nothing from the machine but glibc.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import chromium from "@sparticuz/chromium";

const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE = join(HERE, "node_modules", "@sparticuz", "chromium");

/** The pinned package's version, e.g. "143.0.4" (its major is Chromium's). */
export const pinnedVersion = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).version;

const CACHE = join(HERE, "node_modules", ".cache", `sparticuz-chromium-${pinnedVersion}`);

/** Unpacks everything into `folder` (a fresh staging folder). */
async function unpack(folder) {
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = folder; // read by os.tmpdir() at each call, in executablePath() and its inflate()
  try {
    await chromium.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  // The libraries, which executablePath() unpacks only on Amazon Linux: tar from the brotli stream.
  const libraries = brotliDecompressSync(readFileSync(join(PACKAGE, "bin", "al2023.tar.br")));
  mkdirSync(join(folder, "al2023"));
  const untar = spawnSync("tar", ["-x", "-C", join(folder, "al2023")], { input: libraries });
  if (untar.status !== 0) throw new Error(`tar could not unpack al2023.tar.br: ${untar.stderr}`);
  // The package's fonts.conf names /tmp/fonts: ours names the unpacked fonts, then the machine's.
  writeFileSync(
    join(folder, "fonts.conf"),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <dir>${join(CACHE, "fonts", "fonts")}</dir>\n  <dir>/usr/share/fonts</dir>\n` +
      `  <cachedir>${join(CACHE, "fonts-cache")}</cachedir>\n</fontconfig>\n`,
  );
}

/**
 * The pinned Chromium: its executable and the environment to launch it with (the bundled
 * libraries first on LD_LIBRARY_PATH, the fonts' config). Unpacked on first use, into a staging
 * folder renamed into place, so a run cut short or a second run beside it never sees half a browser.
 */
export async function pinnedChromium() {
  if (!existsSync(join(CACHE, "chromium"))) {
    mkdirSync(dirname(CACHE), { recursive: true });
    const staging = mkdtempSync(`${CACHE}.partial-`);
    await unpack(staging);
    try {
      renameSync(staging, CACHE);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(CACHE, "chromium"))) throw error; // not merely a run beside us that won
    }
  }
  const libraries = join(CACHE, "al2023", "lib");
  const inherited = process.env.LD_LIBRARY_PATH;
  return {
    executablePath: join(CACHE, "chromium"),
    env: {
      LD_LIBRARY_PATH: inherited ? `${libraries}:${inherited}` : libraries,
      FONTCONFIG_FILE: join(CACHE, "fonts.conf"),
    },
  };
}
