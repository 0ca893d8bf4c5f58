/**
 * Adapts the language-model layer's `Policy` (ONNX graphs, LoRA or full tuning) to the
 * trainer's {@link TrainablePolicy}: the optimizer is the policy's resident trainer (gradients,
 * clipping and AdamW stay in the runtime), batched generation grouped by length limit, and the
 * chat codec. Both layers index log-probs by token
 * (entry t scores token t, entry 0 is 0), so scores and weights pass through unshifted.
 */
import type { Rng } from '../../base/rng.js';
import type { Policy } from '../../lm/compute/policy.js';
import type { PolicyTrainer } from '../../lm/compute/policy-trainer.js';
import { PromptCache } from '../../lm/compute/prompt-cache.js';
import { temperatureOf } from '../../lm/compute/batch.js';
import type { AdamWOptions, PolicyOptimizer } from '../optim/policy-optimizer.js';
import { TrainError } from '../train-error.js';
import { TemplateChatCodec } from './template-chat-codec.js';
import type { BackwardOptions, ChatCodec, GenerateRequest, GenerateResult, ParameterValue, ScoreOptions, TokenScores, TrainablePolicy } from './trainable-policy.js';

/**
 * A trainable policy backed by an ONNX transformer.
 *
 * With `score(..., { entropy: true })` it returns the exact entropy of the full next-token
 * distribution at every position (computed in the scoring graph), and `backward` with entropy
 * weights differentiates that entropy too, so `grpo.loss.entropyCoef` is a real entropy bonus.
 *
 * @example
 * ```ts
 * const lmPolicy = await Policy.create(model, { adapter });
 * const policy = new LmTrainablePolicy(lmPolicy);
 * ```
 */
export class LmTrainablePolicy implements TrainablePolicy {
  readonly codec: ChatCodec;
  private disposed = false;
  /** The LM policy's resident trainer: the optimizer the run holds. */
  private trainer: PolicyTrainer | undefined;

  /** @param lm the LM-layer policy (owned by this adapter from now on: `dispose()` closes it). */
  constructor(private readonly lm: Policy) {
    const tokenizer = lm.model.tokenizer;
    const endOfTurn = tokenizer.idToToken(lm.model.generationDefaults.stopTokenIds.find((id) => tokenizer.idToToken(id) === '<|im_end|>') ?? lm.model.generationDefaults.stopTokenIds[0] ?? 0) ?? '<|im_end|>';
    this.codec = new TemplateChatCodec(tokenizer, endOfTurn);
  }

  async generate(requests: readonly GenerateRequest[], rng: Rng): Promise<GenerateResult[]> {
    const results = new Array<GenerateResult>(requests.length);
    const groups = new Map<string, number[]>();
    // Guided and unguided requests go to different calls: a guide moves its call's sampling to the host.
    requests.forEach((r, i) => {
      const key = `${r.maxNewTokens}|${r.temperature}|${r.topP}|${r.keepCache === true}|${r.guide !== undefined}`;
      const list = groups.get(key) ?? [];
      list.push(i);
      groups.set(key, list);
    });
    for (const indices of groups.values()) {
      const first = requests[indices[0]!]!;
      const gens = await this.lm.generate(
        indices.map((i) => requests[i]!.prompt),
        {
          maxTokens: first.maxNewTokens,
          temperature: first.temperature,
          topP: first.topP,
          seed: rng.int(0x7fffffff),
          keepCache: first.keepCache === true,
          ...(first.guide ? { guides: indices.map((i) => requests[i]!.guide) } : {}),
          continueFrom: indices.map((i) => {
            const cache = requests[i]!.continueFrom;
            return cache instanceof PromptCache ? cache : undefined;
          }),
        },
      );
      gens.forEach((g, j) => {
        results[indices[j]!] = { tokens: [...g.tokenIds], logprobs: [...g.logprobs], finishReason: g.finishReason === 'length' ? 'length' : 'stop', ...(g.cache ? { cache: g.cache } : {}) };
      });
    }
    return results;
  }

  async score(sequences: readonly (readonly number[])[], options: ScoreOptions = {}): Promise<TokenScores[]> {
    const { logprobs, entropies } = await this.lm.score(sequences, {
      reference: options.reference ?? false,
      entropy: options.entropy ?? false,
      ...temperatureOf(options),
      ...(options.promptLengths ? { promptLengths: options.promptLengths, completionOnly: options.completionOnly ?? false } : {}),
    });
    return logprobs.map((lp, i) => (entropies ? { logprobs: lp, entropies: entropies[i]! } : { logprobs: lp }));
  }

  async backward(
    sequences: readonly (readonly number[])[],
    logprobWeights: readonly Float64Array[],
    entropyWeights?: readonly Float64Array[],
    options: BackwardOptions = {},
  ): Promise<TokenScores[] | void> {
    if (!this.trainer) throw new TrainError('backward accumulates into the optimizer: call createOptimizer first');
    // The entropy graph costs extra vocabulary-sized buffers: use it only for a non-zero bonus.
    const withEntropy = entropyWeights !== undefined && entropyWeights.some((w) => w.some((v) => v !== 0));
    const r = await this.trainer.accumulate(sequences, logprobWeights, {
      ...(withEntropy ? { entropyWeights } : {}),
      ...(options.scores ? { scores: options.scores } : {}),
      ...temperatureOf(options),
      ...(options.promptLengths ? { promptLengths: options.promptLengths, completionOnly: options.completionOnly ?? false } : {}),
    });
    if (!options.scores || !r.logprobs) return;
    const entropies = r.entropies;
    return r.logprobs.map((lp, i) => (entropies ? { logprobs: lp, entropies: entropies[i]! } : { logprobs: lp }));
  }

  async createOptimizer(options: AdamWOptions): Promise<PolicyOptimizer> {
    this.trainer = await this.lm.createTrainer(options);
    return this.trainer;
  }

  parameterCount(): number {
    return [...this.lm.trainableParameters().values()].reduce((a, t) => a + t.data.length, 0);
  }

  async readParameters(): Promise<Map<string, ParameterValue>> {
    if (this.trainer) return this.trainer.readParameters();
    return new Map([...this.lm.trainableParameters()].map(([n, t]) => [n, { shape: t.shape, data: t.data.slice() }]));
  }

  async loadParameters(values: ReadonlyMap<string, { readonly data: Float32Array }>): Promise<void> {
    const views = this.lm.trainableParameters();
    for (const [name, t] of views) {
      const w = values.get(name);
      if (!w || w.data.length !== t.data.length) {
        throw new TrainError(`checkpoint has no tensor "${name}" of ${t.data.length} values: it was written for another model or LoRA setup`);
      }
    }
    const picked = new Map([...views.keys()].map((n) => [n, values.get(n)!.data] as const));
    if (this.trainer) await this.trainer.loadParameters(picked);
    else {
      for (const [name, data] of picked) views.get(name)!.data.set(data);
      this.lm.weightsChanged();
    }
  }

  /** Makes the current weights the KL reference (see `Policy.freezeReference`: full tuning copies them into the base weights; LoRA needs nothing). */
  async freezeReference(): Promise<void> {
    await this.lm.freezeReference();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.lm.close();
  }
}
