import { execFileSync } from 'node:child_process';

/**
 * Asks the OS for free loopback ports, all distinct, in one child process that holds every
 * probe open until it has them all (one probe at a time could be offered the same port
 * twice). Synchronous because Playwright evaluates its config synchronously; the child
 * process exits before the ports are used.
 */
export function freePorts(count: number): number[] {
  const script = `const net=require('net');const servers=[];
const next=()=>{if(servers.length===${count}){process.stdout.write(servers.map((s)=>s.address().port).join(','));servers.forEach((s)=>s.close());return}
const s=net.createServer();servers.push(s);s.listen(0,'127.0.0.1',next)};next()`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).split(',').map(Number);
}
