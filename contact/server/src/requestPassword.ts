import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost (N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per hash). */
const COST = { N: 32768, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is just below that for N = 2^15. */
const maxmemFor = (N: number, r: number) => 256 * N * r;

function deriveKey(password: string, salt: Buffer, options: { N: number; r: number; p: number }, length: number): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: maxmemFor(options.N, options.r) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, scryptOptions, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * Salted scrypt hash of a request password, as `scrypt$N$r$p$salt$key` (salt and key
 * base64url). The password itself is never stored or logged.
 */
export async function hashRequestPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(password, salt, COST, KEY_BYTES);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `hash` was made from (constant-time comparison); false for malformed hashes. */
export async function verifyRequestPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, N, r, p, saltText, keyText, ...rest] = hash.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !saltText || !keyText) return false;
  const options = { N: Number(N), r: Number(r), p: Number(p) };
  if (!Object.values(options).every((value) => Number.isInteger(value) && value > 0)) return false;
  const expected = Buffer.from(keyText, 'base64url');
  if (expected.length === 0) return false;
  const actual = await deriveKey(password, Buffer.from(saltText, 'base64url'), options, expected.length);
  return timingSafeEqual(actual, expected);
}
