#!/usr/bin/env node
/**
 * The `sqlenv` command. Each subcommand lives in its own file in this folder and exports
 * `run(argv): Promise<number>` (the exit code); they are loaded lazily so that `sqlenv eval`
 * does not pay for loading onnxruntime. An error that ends a command is printed as one line
 * with its fix (`cliErrorLine`).
 */
import { cliErrorLine } from './cli-error.js';

const commands: Record<string, { file: string; summary: string }> = {
  eval: { file: './eval.js', summary: 'run baseline agents on a dataset split' },
  validate: { file: './validate.js', summary: "check the environment's reward on a dataset (exit 1 on failure)" },
  play: { file: './play.js', summary: 'play an episode in the terminal' },
  serve: { file: './serve.js', summary: 'serve an environment over the OpenEnv protocol' },
  data: { file: './data.js', summary: 'dataset tools (stats)' },
  lm: { file: './lm.js', summary: 'language-model tools (logprobs, grad, generate)' },
  train: { file: './train.js', summary: 'GRPO / SFT training from a config file' },
  dashboard: { file: './dashboard.js', summary: 'serve a run directory\'s live dashboard' },
  doctor: { file: './doctor.js', summary: 'runtime report for bug reports (versions, providers, threads, memory, GPU)' },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'usage: sqlenv <command> [options]',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `sqlenv <command> --help` for a command\'s options.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    console.error(`sqlenv: unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  const mod = (await import(command.file)) as { run: (argv: string[]) => Promise<number> };
  return mod.run(rest);
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(cliErrorLine(argv[0] ?? '', err));
    process.exitCode = 1;
    // A `serve --workers` worker's IPC channel to its primary would keep it alive (and the
    // primary waiting for it), and a worker that disconnects exits with 0: exit now, failed.
    if (process.connected) process.exit(1);
  },
);
