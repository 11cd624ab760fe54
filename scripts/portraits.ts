// The seed's provider photos: a few small portraits drawn here (a head and shoulders on a
// coloured ground) and written by `npm run build` beside the other assets, so local pages,
// screenshots and audits show photos without any network (docs/pages.md, "Photos").
import { crc32, deflateSync } from 'node:zlib'

const SIZE = 192
type Rgb = readonly [number, number, number]

// Ground, clothes, skin and hair of each portrait.
const PALETTES: readonly (readonly [Rgb, Rgb, Rgb, Rgb])[] = [
  [
    [203, 226, 240],
    [46, 94, 140],
    [241, 200, 170],
    [60, 40, 30],
  ],
  [
    [240, 222, 200],
    [150, 60, 70],
    [198, 140, 100],
    [30, 24, 20],
  ],
  [
    [215, 236, 214],
    [70, 110, 80],
    [140, 95, 65],
    [20, 16, 14],
  ],
  [
    [236, 214, 236],
    [110, 70, 130],
    [235, 190, 160],
    [170, 120, 60],
  ],
  [
    [250, 236, 196],
    [200, 120, 40],
    [120, 80, 55],
    [40, 30, 25],
  ],
  [
    [222, 222, 236],
    [60, 60, 90],
    [225, 180, 145],
    [120, 80, 50],
  ],
]

/** The PNG of portrait `n` (0 ≤ n < PORTRAIT_COUNT, scripts/seed/photos.ts). */
export function portrait(n: number): Buffer {
  const palette = PALETTES[n % PALETTES.length]
  if (!palette) throw new Error(`no portrait ${n}`)
  const [ground, clothes, skin, hair] = palette
  const rows: Buffer[] = []
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 3)
    for (let x = 0; x < SIZE; x++) {
      const shade = 1 - y / (SIZE * 4)
      let rgb: Rgb = [ground[0] * shade, ground[1] * shade, ground[2] * shade]
      const inEllipse = (cx: number, cy: number, rx: number, ry: number) =>
        ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1
      if (inEllipse(96, 206, 74, 62)) rgb = clothes
      else if (inEllipse(96, 88, 38 + (n % 3) * 3, 46)) rgb = y < 70 - (n % 2) * 8 ? hair : skin
      else if (inEllipse(96, 72, 46 + (n % 3) * 3, 40) && y < 96 + (n % 2) * 30) rgb = hair
      row.set(rgb.map(Math.round), 1 + x * 3)
    }
    rows.push(row)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(SIZE, 0)
  ihdr.writeUInt32BE(SIZE, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8 bits, truecolour, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}
