// Runs a command with loopback as its only network, so a test that reaches anything beyond
// this machine fails instead of passing on a machine that happens to be online: in a network
// namespace of its own (util-linux's unshare, as root; iproute2 brings loopback up). Where no
// namespace can be made, it runs the command as it is and says so.
//   node scripts/no-network.mjs vitest run --project unit
import { spawnSync } from 'node:child_process';

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/no-network.mjs <command> [arguments…]');
  process.exit(2);
}

const works = (program, args) => spawnSync(program, args, { stdio: 'ignore' }).status === 0;
const isolated = process.getuid?.() === 0 && works('unshare', ['--net', 'true']) && works('ip', ['-V']);

console.log(
  isolated
    ? 'no-network: in a network namespace of its own, loopback only.'
    : 'no-network: cannot make a network namespace here (it needs root, unshare and ip); running with the network.',
);
const result = isolated
  ? spawnSync('unshare', ['--net', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...command], {
      stdio: 'inherit',
    })
  : spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
if (result.error) throw result.error;
process.exit(result.status ?? 1);
