import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

export interface ArchiveEntry {
  name: string;
  content?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device';
  linkname?: string;
}

/** Builds a tar.gz in memory, including entries a well-behaved tool would never write. */
export async function tarGz(entries: ArchiveEntry[]): Promise<Buffer> {
  return gzipSync(await tarBytes(entries));
}

/** A tar.gz whose first entry's name holds bytes that are not UTF-8 (the header checksum fixed up). */
export async function tarGzWithRawName(name: Buffer, content: string): Promise<Buffer> {
  const tar = await tarBytes([{ name: 'x'.repeat(name.length), content }]);
  name.copy(tar, 0);
  tar.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += tar[i]!;
  tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return gzipSync(tar);
}

/** Builds a plain tar in memory. */
export async function tarBytes(entries: ArchiveEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: unknown) => void chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const entry of entries) {
    const content = entry.content === undefined ? undefined : Buffer.from(entry.content);
    await new Promise<void>((resolve, reject) =>
      pack.entry(
        { name: entry.name, type: entry.type ?? 'file', linkname: entry.linkname, size: content?.length ?? 0 },
        content ?? '',
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

export function uploadForm(archive: Buffer, name: string, branches: string[] = []) {
  const form = new FormData();
  form.append('name', name);
  for (const branch of branches) form.append('branches', branch);
  form.append('file', new Blob([archive], { type: 'application/gzip' }), 'site.tar.gz');
  return form;
}

export const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');
