// A supervised child for the supervisor's tests: listens on PORT (default any), or on the inherited
// socket LISTEN_FD when set (a held port), after CHILD_LISTEN_DELAY_MS (default 0), reports it, and
// exits on its own after CHILD_EXIT_AFTER_MS when set (a crash), or at once with CHILD_FAIL_START.
import http from 'node:http';

if (process.env.CHILD_FAIL_START) {
  console.error('bad configuration');
  process.exit(3);
}
const server = http.createServer((_req, res) => {
  res.setHeader('X-Pid', String(process.pid));
  res.end('ok');
});
const listenOn = process.env.LISTEN_FD ? { fd: Number(process.env.LISTEN_FD) } : { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' };
setTimeout(() => {
  server.listen(listenOn, () => {
    console.log(JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${server.address().port}`, port: server.address().port }));
    if (process.env.CHILD_EXIT_AFTER_MS) setTimeout(() => process.exit(1), Number(process.env.CHILD_EXIT_AFTER_MS));
  });
}, Number(process.env.CHILD_LISTEN_DELAY_MS ?? 0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
