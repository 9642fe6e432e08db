// A supervised child for the supervisor's tests: listens on PORT (default any), reports it, and
// exits on its own after CHILD_EXIT_AFTER_MS when set (a crash), or at once with CHILD_FAIL_START.
import http from 'node:http';

if (process.env.CHILD_FAIL_START) {
  console.error('bad configuration');
  process.exit(3);
}
const server = http.createServer((_req, res) => res.end('ok'));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.address().port}`, port: server.address().port }));
  if (process.env.CHILD_EXIT_AFTER_MS) setTimeout(() => process.exit(1), Number(process.env.CHILD_EXIT_AFTER_MS));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
