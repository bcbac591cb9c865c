// Writes .gz and .br next to every compressible file in dist/, at the
// highest levels, once per build. The Go server embeds them and picks one by
// Accept-Encoding, so no request ever pays for compression.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const compressible = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.wasm', '.txt', '.xml', '.map', '.webmanifest']);
let files = 0;
let saved = 0;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) { walk(p); continue; }
    if (!compressible.has(extname(p)) || st.size < 512) continue;
    const raw = readFileSync(p);
    const gz = gzipSync(raw, { level: 9 });
    const br = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    // A variant that does not save anything is not worth a lookup.
    if (gz.length < raw.length) writeFileSync(p + '.gz', gz);
    if (br.length < raw.length) writeFileSync(p + '.br', br);
    files++;
    saved += raw.length - Math.min(br.length, raw.length);
  }
}

walk(root);
console.log(`precompressed ${files} files in ${root} (brotli saves ${(saved / 1024).toFixed(0)} KiB)`);
