import { crc32, deflateSync } from 'node:zlib';

// Pictures for the specs that upload one: a real PNG the server decodes, encoded here so no image
// library is needed.

type RGB = [number, number, number];

/** A w×h RGB PNG; `colour` gives each pixel (its channels are cut to whole bytes). */
export function rgbPNG(w: number, h: number, colour: (x: number, y: number) => RGB): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  // Each row: filter type 0, then the pixels' bytes.
  const raw = Buffer.alloc(h * (1 + 3 * w));
  for (let y = 0; y < h; y++) {
    const row = y * (1 + 3 * w);
    for (let x = 0; x < w; x++) raw.set(colour(x, y), row + 1 + 3 * x);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
