import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SafetensorsError } from '../errors.js';
import type { FloatTensor } from '../tensor.js';
import { SafetensorsFile, type TensorEntry } from './reader.js';

/** File name of a single-file checkpoint in a Hugging Face model directory. */
export const SINGLE_CHECKPOINT_FILE = 'model.safetensors';
/** File name of the shard index of a sharded checkpoint. */
export const SHARD_INDEX_FILE = 'model.safetensors.index.json';

/**
 * The weights of a model directory, whether in one `model.safetensors` or sharded with a
 * `model.safetensors.index.json`. Shards are opened lazily, on the first read of one of their
 * tensors. The owner must call {@link Checkpoint.close}.
 *
 * @example
 * const ckpt = await Checkpoint.open('./Qwen3-0.6B');
 * try { console.log(ckpt.names().length); } finally { await ckpt.close(); }
 */
export class Checkpoint {
  private readonly openFiles = new Map<string, Promise<SafetensorsFile>>();

  private constructor(
    readonly dir: string,
    /** Tensor name → shard file name (relative to `dir`). */
    private readonly weightMap: ReadonlyMap<string, string>,
  ) {}

  /** Finds the checkpoint files of `dir` and reads their headers. */
  static async open(dir: string): Promise<Checkpoint> {
    const indexPath = join(dir, SHARD_INDEX_FILE);
    if (existsSync(indexPath)) {
      let index: { weight_map?: Record<string, string> };
      try {
        index = JSON.parse(await readFile(indexPath, 'utf8')) as typeof index;
      } catch (error) {
        throw new SafetensorsError(`${indexPath}: not valid JSON (${(error as Error).message})`);
      }
      if (!index.weight_map || typeof index.weight_map !== 'object') {
        throw new SafetensorsError(`${indexPath}: missing "weight_map"; it should map tensor names to shard files`);
      }
      return new Checkpoint(dir, new Map(Object.entries(index.weight_map)));
    }
    const single = join(dir, SINGLE_CHECKPOINT_FILE);
    if (!existsSync(single)) {
      throw new SafetensorsError(`${dir}: neither ${SINGLE_CHECKPOINT_FILE} nor ${SHARD_INDEX_FILE} found; download the model's safetensors weights (PyTorch .bin files are not supported)`);
    }
    const checkpoint = new Checkpoint(dir, new Map());
    const file = await checkpoint.file(SINGLE_CHECKPOINT_FILE);
    const map = new Map(file.names().map((n) => [n, SINGLE_CHECKPOINT_FILE] as const));
    const filled = new Checkpoint(dir, map);
    filled.openFiles.set(SINGLE_CHECKPOINT_FILE, Promise.resolve(file));
    return filled;
  }

  /** Names of all tensors across shards. */
  names(): string[] {
    return [...this.weightMap.keys()];
  }

  /** Whether the checkpoint holds a tensor of this name. */
  has(name: string): boolean {
    return this.weightMap.has(name);
  }

  /** Header entry (dtype, shape) of one tensor. */
  async entry(name: string): Promise<TensorEntry> {
    const file = await this.file(this.shardOf(name));
    const entry = file.entry(name);
    if (!entry) throw new SafetensorsError(`${this.dir}: the shard index lists "${name}" in ${this.shardOf(name)} but that file lacks it`);
    return entry;
  }

  /** Reads one tensor as float32. */
  async read(name: string): Promise<FloatTensor> {
    return (await this.file(this.shardOf(name))).read(name);
  }

  /** Closes every opened shard (idempotent). */
  async close(): Promise<void> {
    const files = [...this.openFiles.values()];
    this.openFiles.clear();
    await Promise.all(files.map(async (f) => (await f.catch(() => undefined))?.close()));
  }

  private shardOf(name: string): string {
    const shard = this.weightMap.get(name);
    if (!shard) throw new SafetensorsError(`${this.dir}: the checkpoint has no tensor "${name}"`);
    return shard;
  }

  private file(shard: string): Promise<SafetensorsFile> {
    let file = this.openFiles.get(shard);
    if (!file) {
      file = SafetensorsFile.open(join(this.dir, shard));
      this.openFiles.set(shard, file);
    }
    return file;
  }
}
