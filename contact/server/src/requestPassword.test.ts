import { describe, expect, it } from 'vitest';
import { hashRequestPassword, verifyRequestPassword } from './requestPassword.js';

describe('request password hashing', () => {
  it('verifies the password a hash was made from, and nothing else', async () => {
    const hash = await hashRequestPassword('correct horse battery staple');
    expect(await verifyRequestPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyRequestPassword('correct horse battery stapl', hash)).toBe(false);
    expect(await verifyRequestPassword('', hash)).toBe(false);
  });

  it('salts: the same password hashes differently each time, and the hash does not contain it', async () => {
    const [first, second] = await Promise.all([hashRequestPassword('same password 123'), hashRequestPassword('same password 123')]);
    expect(first).not.toBe(second);
    expect(first).not.toContain('same password');
    expect(first.split('$')).toHaveLength(6);
    expect(first.startsWith('scrypt$32768$8$1$')).toBe(true);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const hash = await hashRequestPassword('Pa\u00dfwort f\u00fcr Gr\u00fc\u00dfe');
    expect(await verifyRequestPassword('Pa\u00dfwort fu\u0308r Gru\u0308\u00dfe', hash)).toBe(true);
  });

  it('refuses malformed hashes instead of throwing', async () => {
    for (const hash of ['', 'plain-text-password', 'scrypt$x$8$1$c2FsdA$a2V5', 'bcrypt$1$2$3$c2FsdA$a2V5', 'scrypt$16384$8$1$c2FsdA$', 'scrypt$16384$8$1$c2FsdA$a2V5$extra']) {
      expect(await verifyRequestPassword('anything at all', hash), hash).toBe(false);
    }
  });
});
