// A process that supervises one child and prints the child's pid: the test kills this one with
// SIGKILL and expects the child to end with it.
import path from 'node:path';
import { supervise } from '../supervisor.mjs';

const child = await supervise({ name: 'child', args: [path.join(import.meta.dirname, 'child.mjs')] });
console.log(JSON.stringify({ childPid: child.pid() }));
setInterval(() => {}, 60_000);
