// What the numbers were measured on: CPU, cores, memory, OS, node, nginx and the tools' versions.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

function firstMatch(file, pattern) {
  try {
    return pattern.exec(readFileSync(file, 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

function commandOutput(argv) {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  return result.error ? undefined : `${result.stdout}${result.stderr}`.trim();
}

export function describeMachine() {
  const memKb = Number(firstMatch('/proc/meminfo', /^MemTotal:\s+(\d+)/m) ?? 0);
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    cpu: firstMatch('/proc/cpuinfo', /^model name\s*:\s*(.+)$/m) ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memory: memKb ? `${(memKb / 1024 / 1024).toFixed(1)} GiB` : `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: firstMatch('/etc/os-release', /^PRETTY_NAME="?([^"\n]+)"?$/m) ?? `${os.type()} ${os.release()}`,
    kernel: os.release(),
    node: process.version,
    nginx: commandOutput(['nginx', '-v'])?.replace(/^nginx version:\s*/, '') ?? 'not installed',
    wrk: commandOutput(['wrk', '--version'])?.split('\n')[0]?.split(' [')[0] ?? 'not installed',
    load: os.loadavg().map((n) => n.toFixed(2)).join(', '),
  };
}
