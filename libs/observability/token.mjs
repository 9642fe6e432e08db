// The operators' token as every part checks it on `/metrics` (the shell on `/health/remotes` too):
// `Authorization: Bearer <token>`, or HTTP Basic with the token as the password.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value) => createHash('sha256').update(value).digest();

/** The token an `Authorization` header presents (Bearer, or Basic's password), else undefined. */
export function presentedToken(authorization) {
  if (!authorization) return undefined;
  const [scheme, value = ''] = authorization.split(/\s+/, 2);
  if (/^bearer$/i.test(scheme ?? '')) return value;
  if (/^basic$/i.test(scheme ?? '')) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/** A check of `Authorization` headers against `expected` (compared in constant time): `ok`, `missing` or `wrong`. */
export function tokenCheck(expected) {
  const wanted = digest(expected);
  return (authorization) => {
    const token = presentedToken(authorization);
    if (token === undefined) return 'missing';
    return timingSafeEqual(digest(token), wanted) ? 'ok' : 'wrong';
  };
}

/** The challenge a 401 sends (a person's browser then asks for the token). */
export const OPERATOR_CHALLENGE = ['Bearer realm="khs-operator"', 'Basic realm="khs-operator", charset="UTF-8"'];
