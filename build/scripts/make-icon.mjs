#!/usr/bin/env node
// Draws build/icon.png, the app's icon, at 1024 x 1024 (macOS's largest size; electron-builder makes
// every other size and format from it): a dark rounded square, a teal ring and an amber dot. Drawn
// from its geometry with 4 x 4 samples a pixel for smooth edges, so it can be made again at any size.
//   node build/scripts/make-icon.mjs [size, default 1024] [file, default build/icon.png]
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

const DARK = [30, 36, 48];
const TEAL = [45, 212, 191];
const AMBER = [251, 191, 36];

/** The colour at a point of the unit square (0..1), or null where the icon is transparent. */
function colourAt(x, y) {
  // The rounded square: 1/16 in from each edge, corners of radius 0.193.
  const lo = 0.0625;
  const hi = 0.9375;
  const r = 0.193;
  if (x < lo || x > hi || y < lo || y > hi) return null;
  const cx = Math.min(Math.max(x, lo + r), hi - r);
  const cy = Math.min(Math.max(y, lo + r), hi - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  const ring = Math.hypot(x - 0.423, y - 0.442);
  if (ring <= 0.2334 && ring >= 0.1533) return TEAL;
  if (Math.hypot(x - 0.677, y - 0.696) <= 0.085) return AMBER;
  return DARK;
}

/** RGBA pixels, each the mean of 4 x 4 samples. */
export function drawIcon(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = colourAt((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const at = (py * size + px) * 4;
      if (a > 0) {
        pixels[at] = Math.round(r / a);
        pixels[at + 1] = Math.round(g / a);
        pixels[at + 2] = Math.round(b / a);
      }
      pixels[at + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return pixels;
}

/** A PNG file (8-bit RGBA, no filter) of square RGBA pixels. */
export function encodePng(size, pixels) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const isEntryPoint = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  const size = Number(process.argv[2] ?? 1024);
  const file = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'icon.png');
  writeFileSync(file, encodePng(size, drawIcon(size)));
  console.log(`Wrote ${file} (${size} x ${size}).`);
}
