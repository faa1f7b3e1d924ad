// Small files of every type the uploads tell apart, made here (nothing binary in the repository): real signatures,
// minimal contents.
import { crc32 } from 'node:zlib';

const pad = (head: Buffer, size = 2048) => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.byteLength))]);

/** A zip of stored (uncompressed) entries: the local headers are what file-type reads. */
function storedZip(entries: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.byteLength, 18);
    header.writeUInt32LE(data.byteLength, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}

const officeZip = (main: string, contentType: string) =>
  storedZip([
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${main}" ContentType="${contentType}"/></Types>`,
    ],
    ['_rels/.rels', '<Relationships/>'],
    [main, '<x/>'],
  ]);

/** An OLE2 compound file whose directory names its main stream (WordDocument, Workbook) at a 128-byte entry. */
function compoundFile(stream: string): Buffer {
  const file = Buffer.alloc(4096);
  Buffer.from('D0CF11E0A1B11AE1', 'hex').copy(file, 0);
  file.writeUInt16LE(0x3e, 24); // minor version
  file.writeUInt16LE(3, 26); // major version 3: 512-byte sectors
  file.writeUInt16LE(0xfffe, 28); // little-endian
  file.writeUInt16LE(9, 30); // sector shift
  Buffer.from('Root Entry\u0000', 'utf16le').copy(file, 1024);
  Buffer.from(`${stream}\u0000`, 'utf16le').copy(file, 1024 + 128);
  return file;
}

export const fixtureFiles = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  jpeg: pad(Buffer.from('FFD8FFE000104A46494600010100000100010000', 'hex')),
  gif: pad(Buffer.from('GIF89a\u0001\u0000\u0001\u0000', 'latin1')),
  webp: pad(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0xf8, 0x07, 0, 0]), Buffer.from('WEBPVP8 ')])),
  docx: officeZip(
    'word/document.xml',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  ),
  xlsx: officeZip('xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
  doc: compoundFile('WordDocument'),
  xls: compoundFile('Workbook'),
  /** A Windows executable (MZ and PE headers). */
  exe: pad(
    Buffer.concat([
      Buffer.from('MZ'),
      Buffer.alloc(58),
      Buffer.from([0x40, 0, 0, 0]),
      Buffer.from('PE\u0000\u0000', 'latin1'),
    ]),
    4096,
  ),
};
