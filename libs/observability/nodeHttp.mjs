// `/metrics` on a plain node:http server (the remotes' static origins, the search server).
import { metricsText } from './metrics.mjs';
import { OPERATOR_CHALLENGE, tokenCheck } from './token.mjs';

/**
 * Answers `GET /metrics` with this process's metrics when `authorization` carries `token` (401
 * with the challenge otherwise). Resolves true when it answered; false when `token` is unset (the
 * caller answers the path as any unknown one, 404).
 */
export function serveMetricsOver(token) {
  const check = token ? tokenCheck(token) : undefined;
  return async (req, res) => {
    if (!check) return false;
    const verdict = check(req.headers.authorization);
    if (verdict !== 'ok') {
      const body = JSON.stringify({ error: verdict === 'missing' ? 'An operator token is required' : 'The operator token is wrong', code: 'operator-token-required' });
      res.writeHead(401, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'www-authenticate': OPERATOR_CHALLENGE, 'content-length': Buffer.byteLength(body) });
      res.end(body);
      return true;
    }
    const { contentType, body } = await metricsText();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
