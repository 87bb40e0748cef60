// Scaling: time against input size (one generated file, 10 kB to 10 MB) and against the number of files (10 to
// 10,000). Each point is the CLI's median time with --jobs 1, so the curve is the algorithm's, not the thread count's.
// The exponent is a least-squares fit on log-log of the CPU time minus the start-up CPU time (the CLI on a tiny file):
// 1 is linear; clearly above 1 means some cost grows faster than the input. CPU rather than wall time because it
// barely moves when other work shares the machine (it includes V8's garbage-collector threads, so it can exceed wall).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './corpus.mjs';
import { corpusConfig, fanOutTree, independentTree, syntheticConfig } from './generate.mjs';
import { fitPowerLaw, timeRuns } from './measure.mjs';

const cli = path.join(root, 'dist', 'cli.js');
const check = (target) => [process.execPath, cli, 'check', '--format', 'json', '--jobs', '1', target];

/** Only points well above start-up count in the fit: below that, noise in the start-up time dominates. */
const FIT_FLOOR_SECONDS = 0.05;

/** The fit covers the top two decades of sizes: below them fixed costs (start-up, JIT warm-up) flatten the curve. */
const FIT_DECADES = 2;

function series(name, unit, points, startup) {
  const largest = points.at(-1).size;
  const net = points.map((p) => ({ x: p.size, y: p.cpu - startup }));
  const fit = fitPowerLaw(net.filter((p) => p.y >= FIT_FLOOR_SECONDS && p.x >= largest / 10 ** FIT_DECADES));
  // The slope between the two largest points: a cost growing faster than the input shows there first.
  const tail = fitPowerLaw(net.slice(-2));
  const last = points.at(-1);
  return {
    name, unit, points, exponent: fit.exponent, fitted: fit.points, tailExponent: tail.exponent,
    perUnitMs: ((last.cpu - startup) / last.size) * 1000,
  };
}

function progress(series, size, timed) {
  console.error(`bench:   ${series}, ${size}: ${timed.wall.toFixed(2)} s wall, ${timed.cpu.toFixed(2)} s CPU`);
}

export const SIZE_STEPS = { full: [1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7], quick: [1e4, 1e5, 1e6] };
export const FILE_STEPS = { full: [10, 30, 100, 300, 1000, 3000, 10000], quick: [10, 100, 1000] };

export function measureStartup(workDir, runs) {
  const file = path.join(workDir, 'tiny.conf');
  writeFileSync(file, 'events {}\nhttp {\n}\n');
  return timeRuns(check(file), Math.max(runs, 3)).cpu;
}

export function sizeScaling({ workDir, runs, quick, startup }) {
  const steps = quick ? SIZE_STEPS.quick : SIZE_STEPS.full;
  const generators = [
    ['one file, generated apps', syntheticConfig],
    ['one file, corpus repeated', corpusConfig],
  ];
  return generators.map(([name, generate]) => {
    const points = steps.map((bytes) => {
      const file = path.join(workDir, `size-${bytes}.conf`);
      const text = generate(bytes);
      writeFileSync(file, text);
      const timed = timeRuns(check(file), runs);
      progress(name, bytes, timed);
      rmSync(file);
      return { size: Buffer.byteLength(text) / 1e6, label: `${(Buffer.byteLength(text) / 1e6).toPrecision(2)} MB`, ...timed };
    });
    return series(name, 'MB', points, startup);
  });
}

export function fileScaling({ workDir, runs, quick, startup }) {
  const steps = quick ? FILE_STEPS.quick : FILE_STEPS.full;
  const layouts = [
    // Checking the directory: every file is a document (the common CI invocation).
    ['main + conf.d/*.conf, directory checked', fanOutTree, (dir) => dir],
    // Checking nginx.conf only: one document, the rest reached through the include.
    ['main + conf.d/*.conf, nginx.conf checked', fanOutTree, (dir) => path.join(dir, 'nginx.conf')],
    ['independent site files, directory checked', independentTree, (dir) => dir],
  ];
  return layouts.map(([name, build, target]) => {
    const points = steps.map((count) => {
      const dir = path.join(workDir, `files-${count}`);
      mkdirSync(dir, { recursive: true });
      build(dir, count);
      const timed = timeRuns(check(target(dir)), runs);
      progress(name, count, timed);
      rmSync(dir, { recursive: true, force: true });
      return { size: count, label: `${count} files`, ...timed };
    });
    return series(name, 'file', points, startup);
  });
}
