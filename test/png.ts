/** A PNG's size, read from its header (the IHDR chunk right after the signature); throws on anything else. */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngSize(data: Buffer): { width: number; height: number } {
  if (data.length < 24 || !data.subarray(0, 8).equals(SIGNATURE) || data.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG');
  }
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}
