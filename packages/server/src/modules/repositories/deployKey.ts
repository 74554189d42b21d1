import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';

/** An SSH wire string: its length as 4 bytes, big-endian, then its bytes. */
function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

const KEY_TYPE = 'ssh-ed25519';

/** The lines of PEM-like armour OpenSSH writes, 70 characters of base64 each. */
function armoured(label: string, body: Buffer) {
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * An unencrypted private key in OpenSSH's own format (`openssh-key-v1`, PROTOCOL.key): the only
 * one its client reads for ed25519 keys. The private section holds a check number twice, the
 * public key, the 32-byte seed followed by the public key, a comment, then padding to 8 bytes.
 */
function openSshPrivateKey(publicBlob: Buffer, seed: Buffer, publicKey: Buffer, comment: string): string {
  const check = randomBytes(4);
  let section = Buffer.concat([
    check,
    check,
    sshString(KEY_TYPE),
    sshString(publicKey),
    sshString(Buffer.concat([seed, publicKey])),
    sshString(comment),
  ]);
  const padding = Buffer.from(Array.from({ length: (8 - (section.length % 8)) % 8 }, (_, i) => i + 1));
  section = Buffer.concat([section, padding]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    Buffer.from([0, 0, 0, 1]),
    sshString(publicBlob),
    sshString(section),
  ]);
  return armoured('OPENSSH PRIVATE KEY', body);
}

export interface DeployKey {
  /** `ssh-ed25519 AAAA… {comment}`, as a forge's deploy key form takes it. */
  publicKey: string;
  /** `SHA256:…`, as `ssh-keygen -l` and the forges show it. */
  fingerprint: string;
  /** The private key in OpenSSH's format: what `ssh -i` reads. */
  privateKey: string;
}

/** A new ed25519 key pair for cloning one site's repository; `comment` names it at the forge. */
export function newDeployKey(comment: string): DeployKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = (key: typeof publicKey, field: 'x' | 'd') =>
    Buffer.from(key.export({ format: 'jwk' })[field]!, 'base64url');
  const publicBytes = raw(publicKey, 'x');
  const publicBlob = Buffer.concat([sshString(KEY_TYPE), sshString(publicBytes)]);
  const fingerprint = `SHA256:${createHash('sha256').update(publicBlob).digest('base64').replace(/=+$/, '')}`;
  return {
    publicKey: `${KEY_TYPE} ${publicBlob.toString('base64')} ${comment}`,
    fingerprint,
    privateKey: openSshPrivateKey(publicBlob, raw(privateKey, 'd'), publicBytes, comment),
  };
}

/** The fingerprint of a public key in OpenSSH's one-line form. */
export function fingerprintOf(publicKey: string): string {
  const blob = Buffer.from(publicKey.split(' ')[1] ?? '', 'base64');
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The fingerprints of the keys in known_hosts lines (`[host]:port ssh-ed25519 AAAA…`), each once. */
export function hostKeyFingerprints(knownHosts: string): string[] {
  const keys = knownHosts
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 3 && !fields[0]!.startsWith('#'))
    .map((fields) => fingerprintOf(`${fields[1]} ${fields[2]}`));
  return [...new Set(keys)];
}
