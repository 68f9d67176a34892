import { execFileSync } from 'node:child_process';

/**
 * Asks the OS for a free loopback port. Synchronous because Playwright evaluates its
 * config synchronously; the child process exits before the port is used.
 */
export function freePort(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}
