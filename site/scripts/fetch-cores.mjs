#!/usr/bin/env node
// fetch-cores.mjs — the emulator core build step.
//
// For each pinned core it fetches the EmulatorJS build from the npm registry
// with `npm pack @emulatorjs/core-<core>@<version>` (that one tarball only:
// the packages depend on @emulatorjs/emulatorjs, whose optional
// dependencies would drag in all 48 cores), unpacks the non-thread wasm
// `.data` 7z archive with 7z (Debian p7zip-full), adapts the core JS for
// Nostalgist (see shared/notes/emulator-offline.md: a comment containing
// import.meta.url and `var <core> = EJS_Runtime;`), and writes the files with
// precompressed .gz and .br variants plus the core's own licence into
// site/cores/dist/<core>/, and a manifest site/cores/dist/cores.json. The Go binary
// embeds site/cores/dist (build tag embedsite) and serves it under /cores/.
//
// Usage: node site/scripts/fetch-cores.mjs [--out DIR] [--only] [core[@version] ...]
//   With no cores named, the default set below. A core already unpacked at
//   the same version is skipped, so the step is cheap to repeat. --out lets
//   the owner prepare extra cores for config `emulator.extra_cores_dir`.
//   --only removes every other core from the output directory, so it holds
//   exactly the named (or default) set: `make cores` uses it, and
//   `make build CORES="fceumm gambatte mgba"` builds a binary with just those.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// The default set: one core per console this project ships ROMs for.
// Versions are pinned; bump them here (and check the e2e test still sees the
// ROM colours) to update.
const DEFAULT_CORES = {
  fceumm: '4.2.3', // nes
  snes9x: '4.2.3', // snes
  gambatte: '4.2.3', // gb, gbc
  mgba: '4.2.3', // gba
  genesis_plus_gx: '4.2.3', // megadrive, sms, gg, segacd
};

// Bump when the output layout or the JS adaptation changes, so cached
// cores are rebuilt.
const LAYOUT = 3;

function parseArgs(argv) {
  let out = path.join(repo, 'site', 'cores', 'dist');
  let only = false;
  const cores = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') {
      out = path.resolve(argv[++i]);
    } else if (a === '--only') {
      only = true;
    } else if (a === '-h' || a === '--help') {
      console.log('usage: node site/scripts/fetch-cores.mjs [--out DIR] [--only] [core[@version] ...]');
      process.exit(0);
    } else {
      const [name, version] = a.split('@');
      if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad core name ${name}`);
      cores[name] = version || DEFAULT_CORES[name] || '4.2.3';
    }
  }
  return { out, only, cores: Object.keys(cores).length ? cores : DEFAULT_CORES };
}

function have(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// classifyLicence names the licence of a core from its own licence text
// (core.json's "license" field is a file name, not an identifier).
function classifyLicence(text) {
  const t = text.replace(/\s+/g, ' ');
  if (!t.trim()) return 'unknown (the package ships an empty licence file)';
  // The licence at the top of the file is the core's own; later sections
  // cover bundled parts.
  const head = t.slice(0, 2000);
  if (/Mozilla Public License Version 2\.0/i.test(head)) return 'MPL-2.0';
  if (/GNU GENERAL PUBLIC LICENSE Version 3/i.test(head)) return 'GPL-3.0';
  if (/GNU GENERAL PUBLIC LICENSE Version 2/i.test(head)) return 'GPL-2.0';
  if (/for non-commercial purposes|may not be sold|non-commercial use only|PERSONAL USE only/i.test(t)) return 'non-commercial use only';
  if (/GNU LESSER GENERAL PUBLIC LICENSE/i.test(head)) return 'LGPL';
  if (/Permission is hereby granted, free of charge/i.test(t)) return 'MIT';
  if (/Redistribution and use in source and binary forms/i.test(t)) return 'BSD-style';
  return 'see licence file';
}

function writeCompressed(file) {
  const raw = fs.readFileSync(file);
  fs.writeFileSync(file + '.gz', zlib.gzipSync(raw, { level: 9 }));
  fs.writeFileSync(
    file + '.br',
    zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      },
    }),
  );
}

function buildCore(name, version, out, work) {
  const dest = path.join(out, name);
  const stampFile = path.join(dest, '.stamp');
  const stamp = `${name}@${version} layout ${LAYOUT}`;
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`cores: ${name}@${version} up to date`);
    return JSON.parse(fs.readFileSync(path.join(dest, 'manifest.json'), 'utf8'));
  }
  const pkg = `@emulatorjs/core-${name}@${version}`;
  console.log(`cores: fetching ${pkg}`);
  const pkgDir = path.join(work, name);
  fs.rmSync(pkgDir, { recursive: true, force: true });
  fs.mkdirSync(pkgDir, { recursive: true });
  // npm pack fetches the one tarball (no dependencies) into pkgDir.
  const tgzName = execFileSync('npm', ['pack', pkg, '--pack-destination', pkgDir, '--silent'], {
    cwd: pkgDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['xzf', path.join(pkgDir, tgzName), '-C', pkgDir]);
  const data = path.join(pkgDir, 'package', `${name}-wasm.data`);
  if (!fs.existsSync(data)) {
    throw new Error(`${pkg} has no ${name}-wasm.data (thread-only cores need COOP/COEP and are not supported here)`);
  }
  const unpacked = path.join(pkgDir, 'unpacked');
  execFileSync('7z', ['x', '-y', `-o${unpacked}`, data], { stdio: 'ignore' });

  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  const jsName = `${name}_libretro.js`;
  const wasmName = `${name}_libretro.wasm`;
  let js = fs.readFileSync(path.join(unpacked, jsName), 'utf8');
  // Nostalgist treats core JS as a module factory only when the text
  // mentions import.meta.url, and then calls the factory named after the
  // core. The EmulatorJS build defines EJS_Runtime: name it for Nostalgist.
  if (!js.includes('import.meta.url')) {
    js += `\n// devhub: served for Nostalgist, which expects an ES module build (import.meta.url)\nvar ${name} = EJS_Runtime;\n`;
  }
  fs.writeFileSync(path.join(dest, jsName), js);
  fs.copyFileSync(path.join(unpacked, wasmName), path.join(dest, wasmName));
  const licence = fs.existsSync(path.join(unpacked, 'license.txt'))
    ? fs.readFileSync(path.join(unpacked, 'license.txt'), 'utf8')
    : '';
  fs.writeFileSync(path.join(dest, 'license.txt'), licence);
  const coreJson = JSON.parse(fs.readFileSync(path.join(unpacked, 'core.json'), 'utf8'));
  fs.copyFileSync(path.join(unpacked, 'core.json'), path.join(dest, 'core.json'));
  for (const f of [jsName, wasmName]) writeCompressed(path.join(dest, f));

  const sha = (f) => createHash('sha256').update(fs.readFileSync(path.join(dest, f))).digest('hex');
  const manifest = {
    name,
    version,
    package: `@emulatorjs/core-${name}`,
    licence: classifyLicence(licence),
    licenceFile: 'license.txt',
    source: coreJson.repo || '',
    extensions: coreJson.extensions || [],
    js: jsName,
    wasm: wasmName,
    sha256: { [jsName]: sha(jsName), [wasmName]: sha(wasmName) },
  };
  fs.writeFileSync(path.join(dest, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  fs.writeFileSync(stampFile, stamp);
  fs.rmSync(pkgDir, { recursive: true, force: true });
  return manifest;
}

function main() {
  const { out, only, cores } = parseArgs(process.argv.slice(2));
  if (!have('7z')) {
    console.error('cores: 7z not found; install Debian p7zip-full (apt-get install -y p7zip-full)');
    process.exit(1);
  }
  const work = path.join(repo, 'build', 'cores-src');
  fs.mkdirSync(work, { recursive: true });
  fs.mkdirSync(out, { recursive: true });
  const manifests = Object.entries(cores).map(([name, version]) => buildCore(name, version, out, work));
  if (only) {
    for (const d of fs.readdirSync(out, { withFileTypes: true })) {
      if (d.isDirectory() && !(d.name in cores)) {
        console.log(`cores: removing ${d.name} (not in the requested set)`);
        fs.rmSync(path.join(out, d.name), { recursive: true, force: true });
      }
    }
  }
  // The index of this directory: every core present, also ones built by an
  // earlier run with other arguments.
  const all = fs
    .readdirSync(out, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(out, d.name, 'manifest.json')))
    .map((d) => JSON.parse(fs.readFileSync(path.join(out, d.name, 'manifest.json'), 'utf8')))
    .sort((a, b) => a.name.localeCompare(b.name));
  fs.writeFileSync(path.join(out, 'cores.json'), JSON.stringify({ cores: all }, null, 2) + '\n');
  console.log(`cores: ${manifests.map((m) => `${m.name}@${m.version} (${m.licence})`).join(', ')} → ${path.relative(repo, out) || out}`);
}

main();
